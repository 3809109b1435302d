//! verdict: violated div-by-zero line 19
//! bound: 2
//! run: input=1,-3 output= error=div-by-zero line 19
//! run: input=1,2 output= result=20
//! run: input=0,-3 output= result=100
//! source: corpus (no seed listing): a value with no closed form that IS read after the loop
//! note: y = y * 3 + x has no closed form and the division after the loop reads it, so its value must stay exact: the loop is not summarized (replacing y by a fresh value would be wrong), and plain execution finds n = 1, x = -3 (y = 0)

void reach_error(void); int main(void) { int i, n, x, y; 

n = __VERIFIER_nondet_int(); 
x = __VERIFIER_nondet_int(); 
y = 1; 
i = 0; 
while ((i < n)) { { 
y = ((y * 3) + x); 
i = (i + 1); } } 

return (100 / y); }
// The C version of summarize_live_variable.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
