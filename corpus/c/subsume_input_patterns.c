//! verdict: safe
//! paths: 16
//! run: input=1,1,1,1 output= result=4000
//! run: input=0,0,0,0 output= result=-4
//! run: input=1,0,0,1 output= result=1998
//! source: corpus (no seed listing): a review's program for issue 26, written in micro-c
//! note: every one of the 16 ways through the loop is safe. Under `--subsume` a pruned state at the header carries the header's annotation back, a disjunction over the explored suffixes with a universally quantified input each; carried back whole, the disjuncts for more iterations than the pruned state has left grew by one iteration at each one walked back, and the annotations grew without end (over 100 s, then `unknown`). Only the disjuncts the pruned state's values do not falsify are carried back now (docs/path-subsumption.md)
void reach_error(void); int main(void) { int x, i, c; 

x = 0; 
i = 0; 
while ((i < 4)) { { 
c = __VERIFIER_nondet_int(); 
if (c) { { 
x = (x + 1000); } } else { 
{ 
x = (x - 1); } } 

i = (i + 1); } } 

if (!(x <= 4000)) reach_error(); 
if (!(x >= (-4))) reach_error(); 
return x; }
// The C version of subsume_input_patterns.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
