//! verdict: safe
//! run: input=25 output= result=10
//! run: input=5 output= result=5
//! run: input=-3 output= result=0
//! source: corpus (no seed listing): a sequential multi-path loop (seed 002 §4.4.2.3, like listing 3.2)
//! note: the path with i < 10 runs first, then the other one until i == n; low counts the first phase and high three times the second, without wrap-around because n <= 1000000

void reach_error(void); int main(void) { int i, n, low, high; 

n = __VERIFIER_nondet_int(); 
__VERIFIER_assume((n <= 1000000)); 
i = 0; 
low = 0; 
high = 0; 
while ((i < n)) { { 
if ((i < 10)) { { 
low = (low + 1); } } else { 
{ 
high = (high + 3); } } 

i = (i + 1); } } 

if (!(low <= 10)) reach_error(); 
if (!((low + (high / 3)) == i)) reach_error(); 
return low; }
// The C version of summarize_two_phases.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
