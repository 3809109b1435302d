//! verdict: safe
//! run: input=1,2,3 output=3 result=6
//! run: input= output=0 result=0
//! run: input=5,-1,7 output=1 result=5
//! source: corpus (interpreter semantics)
//! note: sums the input up to the first -1, which is also what `input` yields once the input list is exhausted (the course convention); no operation can fail, but the loop may run forever on symbolic input

void reach_error(void); int main(void) { int x, n, s; 

s = 0; 
n = 0; 
x = __VERIFIER_nondet_int(); 
while ((x != (-1))) { { 
s = (s + x); 
n = (n + 1); 
x = __VERIFIER_nondet_int(); } } 

n; 
return s; }
// The C version of interp_input_exhausted.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
