//! verdict: safe
//! paths: 1
//! run: input= output=1134903170,1836311903,-1323752223 result=512559680
//! source: corpus (course program)
//! note: iterative Fibonacci; fib(47) = 2971215073 does not fit in 32 bits and wraps to -1323752223 as a JVM Int, fib(48) to 512559680
//! note: the verdict does not depend on the integer model; with unbounded integers the outputs would be 1134903170, 1836311903, 2971215073 and the result 4807526976

void reach_error(void); int fib(int n) { int a, b, t; 

a = 0; 
b = 1; 
while ((n > 0)) { { 
t = (a + b); 
a = b; 
b = t; 
n = (n - 1); } } 

return a; }


int main(void) { 
fib(45); 
fib(46); 
fib(47); 
return fib(48); }
// The C version of course_fibonacci_wrap.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
