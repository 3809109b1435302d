//! verdict: safe
//! paths: 1
//! run: input= output= result=120
//! source: 002_6b738ee45e29b48c.txt Code listing 2.1
//! note: verbatim; recursion on a constant argument

void reach_error(void); int f(int n) { int r; 


if ((n == 0)) { { 
r = 1; } } else { 
{ 
r = (n * f((n - 1))); } } 

return r; }


int main(void) { 
return f(5); }
// The C version of interproc_factorial_2_1.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
