//! verdict: violated assert line 19
//! bound: 6
//! run: input=1,5 output= error=assert line 19
//! run: input=3,20 output= result=30
//! run: input=0,7 output= result=0
//! source: corpus (no seed listing): summarize_inner_abort.uc with `m >= 5`
//! note: for 5 <= m < 10 the inner run ends at the failing check in the first outer iteration: the outer summary must not use the inner one there, so plain execution reaches the check
void reach_error(void); int main(void) { int n, m, i, j, s; 

n = __VERIFIER_nondet_int(); 
m = __VERIFIER_nondet_int(); 
__VERIFIER_assume((m >= 5)); 
i = 0; 
s = 0; 
while ((i < n)) { { 
j = 0; 
while ((j < 10)) { { 
if ((j == m)) { { 
if (!0) reach_error(); } } 

j = (j + 1); } } 

s = (s + j); 
i = (i + 1); } } 

if ((n > 0)) { { 
if (!(s == (10 * n))) reach_error(); } } 

return s; }
// The C version of summarize_inner_abort_reached.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
