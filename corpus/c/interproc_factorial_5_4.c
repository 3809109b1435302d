//! verdict: violated div-by-zero line 27
//! bound: 4
//! run: input=2 output=2 error=div-by-zero line 27
//! run: input=4 output=24 result=0
//! run: input=1 output=1 result=-1
//! source: 002_6b738ee45e29b48c.txt Code listing 5.4
//! note: verbatim; fac(2) == 2 makes a - 2 zero (3 nested calls); for negative b the recursion only ends after the counter wraps around

void reach_error(void); int fac(int n) { int f; 


if ((n == 0)) { { 
f = 1; } } else { 
{ 
f = (n * fac((n - 1))); } } 


return f; }



int main(void) { int a, b; 

b = __VERIFIER_nondet_int(); 
a = fac(b); 
a; 
return (1 / (a - 2)); }
// The C version of interproc_factorial_5_4.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
