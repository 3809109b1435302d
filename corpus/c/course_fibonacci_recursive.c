//! verdict: safe
//! paths: 1
//! run: input= output=0,1,55 result=6765
//! source: corpus (course program)
//! note: doubly recursive Fibonacci of constants: fib(0), fib(1), fib(10), fib(20)

void reach_error(void); int fib(int n) { int r; 

if ((n < 2)) { { 
r = n; } } else { 
{ 
r = (fib((n - 1)) + fib((n - 2))); } } 

return r; }


int main(void) { 
fib(0); 
fib(1); 
fib(10); 
return fib(20); }
// The C version of course_fibonacci_recursive.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
