//! verdict: safe
//! run: input=5 output= result=5
//! run: input=0 output= result=0
//! run: input=-4 output= result=0
//! source: corpus (no seed listing): SV-COMP's loop-invgen/up in micro-c
//! note: the second loop's body has a path through a check that always fails (`__VERIFIER_assert` without `abort`); no run comes back from it, so the loop is sequential and --summarize proves that k counts down from n to 1 while j < n

void reach_error(void); int main(void) { int n, i, k, j; 

n = __VERIFIER_nondet_int(); 
i = 0; 
k = 0; 
while ((i < n)) { { 
i = (i + 1); 
k = (k + 1); } } 

j = 0; 
while ((j < n)) { { 
if ((k <= 0)) { { 
if (!0) reach_error(); } } 

j = (j + 1); 
k = (k - 1); } } 

return j; }
// The C version of summarize_failing_check_path.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
