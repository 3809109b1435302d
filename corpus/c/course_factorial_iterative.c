//! verdict: safe
//! paths: 1
//! run: input= output=120,479001600 result=3628800
//! source: corpus (course program)
//! note: iterative factorial of constants; 12! is the largest factorial that fits in 32 bits

void reach_error(void); int fact(int n) { int r; 

r = 1; 
while ((n > 0)) { { 
r = (r * n); 
n = (n - 1); } } 

return r; }


int main(void) { 
fact(5); 
fact(12); 
return fact(10); }
// The C version of course_factorial_iterative.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
