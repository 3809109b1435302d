//! verdict: safe
//! run: input=5,20 output= result=10
//! run: input=0,15 output= result=0
//! run: input=9,11 output= result=10
//! source: corpus (no seed listing): an inner loop run at one outer iteration (`if (i == 3)`)
//! note: the outer loop's two paths (`i != 3`, `i == 3`) form a cycle without a period, gone round once since the `==` holds at one iteration: --summarize enumerates its phases one by one (i up to 3, i == 3 with the inner loop, i from 4 on); the inner loop's path through the failing check is unreachable for m > 10
void reach_error(void); int main(void) { int n, m, i, j, s; 

n = __VERIFIER_nondet_int(); 
m = __VERIFIER_nondet_int(); 
__VERIFIER_assume((m > 10)); 
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
// The C version of summarize_equality_cycle.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
