//! verdict: safe
//! run: input=5,3 output= result=2
//! run: input=0,7 output= result=0
//! run: input=1000000,999 output= result=1002
//! source: corpus (no seed listing): loop summarization of x - invariant (seed 002 §4.4.1)
//! note: n goes down by the loop-invariant k in every iteration; with n >= 0 and 0 < k < 1000 it never wraps, so the loop always stops with n <= 0, after up to 2^31 iterations: plain execution cannot finish, a summary with a symbolic iteration count proves it

void reach_error(void); int main(void) { int n, k, count; 

n = __VERIFIER_nondet_int(); 
k = __VERIFIER_nondet_int(); 
__VERIFIER_assume((((n >= 0) && (k > 0)) && (k < 1000))); 
count = 0; 
while ((n > 0)) { { 
n = (n - k); 
count = (count + 1); } } 

if (!(n <= 0)) reach_error(); 
return count; }
// The C version of summarize_invariant_step.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
