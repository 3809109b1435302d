//! verdict: violated assert line 19
//! bound: 6
//! run: input=10,5 output= error=assert line 19
//! run: input=10,6 output= result=5
//! run: input=3,7 output= result=2
//! source: corpus (no seed listing): a summarized walk that both of its conditions stop at once
//! note: `x < m` fixes the count (m iterations) and `x + x < n` does not (x moves by two against n); with n = 10 and m = 5 both fail at x = 5, and the summary must not lose that run to either side of its split by the failing condition

void reach_error(void); int main(void) { int x, n, m; 

n = __VERIFIER_nondet_int(); 
m = __VERIFIER_nondet_int(); 
x = 0; 
while ((((x + x) < n) && (x < m))) { { 
x = (x + 1); } } 

if ((x == 5)) { { 
if ((n == 10)) { { 
if (!(m != 5)) reach_error(); } } } } 


return x; }
// The C version of summarize_two_stops.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
