//! verdict: violated div-by-zero line 22
//! bound: 2
//! run: input=0,0,0 output= error=div-by-zero line 22
//! run: input=5,3,0 output= error=div-by-zero line 22
//! run: input=1,3,0 output= result=0
//! source: 002_6b738ee45e29b48c.txt Code listing 4.10
//! note: verbatim; whenever the loop runs it stops with x == n exactly, and with x == n initially it does not run, so 1 / (x - n) divides by zero unless x > n at the start

void reach_error(void); int main(void) { int n, x, z; 

n = __VERIFIER_nondet_int(); 
x = __VERIFIER_nondet_int(); 
z = __VERIFIER_nondet_int(); 
while ((x < n)) { { 
if ((z > x)) { { 
x = (x + 1); } } else { 

{ 
z = (z + 1); } } } } 


return (1 / (x - n)); }
// The C version of loops_periodic_4_10.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
