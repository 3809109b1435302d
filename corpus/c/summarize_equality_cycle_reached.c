//! verdict: violated assert line 21
//! bound: 6
//! run: input=4,7 output= error=assert line 21
//! run: input=4,5 output= error=assert line 21
//! run: input=3,5 output= result=0
//! run: input=9,11 output= result=10
//! source: corpus (no seed listing): summarize_equality_cycle.uc with `m >= 5`
//! note: for 5 <= m < 10 the inner run at i == 3 ends at the failing check: the state is split there, plain execution reaches the check, and the summary serves m >= 10, where the assertion after the loop holds
void reach_error(void); int main(void) { int n, m, i, j, s; 

n = __VERIFIER_nondet_int(); 
m = __VERIFIER_nondet_int(); 
__VERIFIER_assume((m >= 5)); 
i = 0; 
s = 0; 
while ((i < n)) { { 
if ((i == 3)) { { 
j = 0; 
while ((j < 10)) { { 
if ((j == m)) { { 
if (!0) reach_error(); } } 

j = (j + 1); } } 

s = (s + j); } } 

i = (i + 1); } } 

if ((n > 3)) { { 
if (!(s == 10)) reach_error(); } } 

return s; }
// The C version of summarize_equality_cycle_reached.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
