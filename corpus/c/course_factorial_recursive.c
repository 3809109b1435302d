//! run: input=5 output= result=120
//! run: input=0 output= result=1
//! run: input=-3 output= result=1
//! run: input=12 output= result=479001600
//! run: input=13 output= result=1932053504
//! run: input= output= result=1
//! source: corpus (course program)
//! note: recursive factorial of an input; 13! = 6227020800 wraps to 1932053504 as a 32-bit (JVM) Int; an exhausted input reads -1
//! note: no verdict: the recursion depth follows the input, so an unbounded analysis does not terminate

void reach_error(void); int fact(int n) { int r; 

if ((n <= 0)) { { 
r = 1; } } else { 
{ 
r = (n * fact((n - 1))); } } 

return r; }


int main(void) { 
return fact(__VERIFIER_nondet_int()); }
// The C version of course_factorial_recursive.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
