//! verdict: safe
//! run: input=3 output= result=3
//! run: input=0 output= result=0
//! run: input=-4 output= result=0
//! source: corpus (no seed listing): SV-COMP's loop-new/half in micro-c
//! note: the body's two paths test `i % 2`, which no affine condition can state; each path is taken one iteration at a time, so they form a cycle of period (1, 1) whose macro walk moves `i` by 2 and leaves the test invariant: --summarize proves n == k
void reach_error(void); int main(void) { int k, i, n; 

k = __VERIFIER_nondet_int(); 
__VERIFIER_assume((k >= (-1000000))); 
__VERIFIER_assume((k <= 1000000)); 
i = 0; 
n = 0; 
while ((i < (2 * k))) { { 
if (((i % 2) == 0)) { { 
n = (n + 1); } } 

i = (i + 1); } } 

if ((k >= 0)) { { 
if (!(n == k)) reach_error(); } } 

return n; }
// The C version of summarize_parity_paths.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
