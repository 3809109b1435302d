//! verdict: violated assert line 26
//! bound: 5
//! run: input=4,0 output= error=assert line 26
//! run: input=2,5 output= result=8
//! run: input=3,-1 output= result=14
//! source: corpus (no seed listing): summarize_inner_written_only.uc's shape with an inner loop that may not run
//! note: the inner loop writes w without reading it; for m <= 0 it runs no iteration and w keeps the 7 of the previous outer iteration, so s = 7 * (n - 1): an outer summary that gave w any value of the inner run would miss s == 21
void reach_error(void); int main(void) { int n, m, i, j, w, s; 

n = __VERIFIER_nondet_int(); 
m = __VERIFIER_nondet_int(); 
i = 0; 
s = 0; 
w = 0; 
while ((i < n)) { { 
j = 0; 
while ((j < m)) { { 
w = j; 
j = (j + 1); } } 

s = (s + w); 
w = 7; 
i = (i + 1); } } 

if ((m <= 0)) { { 
if (!(s != 21)) reach_error(); } } 

return s; }
// The C version of summarize_inner_stale_result.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
