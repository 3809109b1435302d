//! verdict: safe
//! run: input=0,10,3,1,1,1 output= result=13
//! run: input=5,7,3 output= result=7
//! source: 002_6b738ee45e29b48c.txt Code listing 4.12
//! note: verbatim; the guard depends on a fresh input in every iteration (NIV condition, not summarizable) and the loop may never stop, but no operation in the program can fail

void reach_error(void); int main(void) { int i, j, k, n; 

i = __VERIFIER_nondet_int(); 
k = __VERIFIER_nondet_int(); 
n = __VERIFIER_nondet_int(); 
while ((i < n)) { { 
j = __VERIFIER_nondet_int(); 
i = (i + j); 
k = (k + 1); } } 

return k; }
// The C version of loops_niv_4_12.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
