//! verdict: violated assert line 20
//! bound: 41
//! run: input=20 output= error=assert line 20
//! run: input=1000 output= error=assert line 20
//! source: corpus (no seed listing): summarize_parity_paths.uc with an assertion that n stays below 20
//! note: n reaches k, at least 20: a summary of the parity cycle that counted n wrongly, or ended the loop early, would prove the assertion
void reach_error(void); int main(void) { int k, i, n; 

k = __VERIFIER_nondet_int(); 
__VERIFIER_assume((k >= 20)); 
__VERIFIER_assume((k <= 1000000)); 
i = 0; 
n = 0; 
while ((i < (2 * k))) { { 
if (((i % 2) == 0)) { { 
n = (n + 1); } } 

i = (i + 1); } } 

if (!(n < 20)) reach_error(); 
return n; }
// The C version of summarize_parity_reached.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
