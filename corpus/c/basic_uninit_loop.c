//! verdict: violated uninit line 16
//! bound: 2
//! run: input=3 output= result=2
//! run: input=0 output= error=uninit line 16
//! source: corpus (no seed listing): a variable assigned only inside a loop body
//! note: last is read after the loop; when n <= 0 the body never runs

void reach_error(void); int main(void) { int i, n, last; 

n = __VERIFIER_nondet_int(); 
i = 0; 
while ((i < n)) { { 
last = i; 
i = (i + 1); } } 

return last; }
// The C version of basic_uninit_loop.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
