//! verdict: violated assert line 21
//! bound: 21
//! run: input=20 output= error=assert line 21
//! run: input=1000 output= error=assert line 21
//! source: corpus (no seed listing): summarize_failing_check_path.uc with its second loop running once more
//! note: at j == n, k has counted down to 0 and the failing check is reached: a summary that ends the run at the check must still lead plain execution into it, never prove the check safe

void reach_error(void); int main(void) { int n, i, k, j; 

n = __VERIFIER_nondet_int(); 
__VERIFIER_assume((n >= 20)); 
i = 0; 
k = 0; 
while ((i < n)) { { 
i = (i + 1); 
k = (k + 1); } } 

j = 0; 
while ((j <= n)) { { 
if ((k <= 0)) { { 
if (!0) reach_error(); } } 

j = (j + 1); 
k = (k - 1); } } 

return j; }
// The C version of summarize_failing_check_reached.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
