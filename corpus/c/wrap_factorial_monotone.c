//! verdict: violated assert line 27
//! bound: 16
//! run: input=12 output=479001600,1932053504 result=0
//! run: input=13 output=1932053504,1278945280 error=assert line 27
//! source: corpus (no seed listing): bounded recursion whose result wraps around
//! note: differs under math ints
//! note: fac(n + 1) > fac(n) holds for every n >= 1 with unbounded integers; with 32-bit numbers 14! wraps to 1278945280 < 13! mod 2^32 = 1932053504, and n = 13 is the smallest failing input (fac(14) needs 14 nested calls of fac)

void reach_error(void); int fac(int n) { int f; 

if ((n <= 1)) { { 
f = 1; } } else { 
{ 
f = (n * fac((n - 1))); } } 

return f; }


int main(void) { int n, a, b; 

n = __VERIFIER_nondet_int(); 
__VERIFIER_assume(((n >= 1) && (n <= 20))); 
a = fac(n); 
b = fac((n + 1)); 
a; 
b; 
if (!(b > a)) reach_error(); 
return 0; }
// The C version of wrap_factorial_monotone.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
