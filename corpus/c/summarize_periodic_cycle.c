//! verdict: violated assert line 23
//! bound: 7
//! run: input=2,0,-3 output= error=assert line 23
//! run: input=1,0,0 output= result=2
//! source: corpus (no seed listing): the periodic loop of seed 002 listing 4.10 with a step counter
//! note: from z <= x the loop raises z past x, then alternates one z step and one x step (a cycle of the path dependency automaton with periods 1 and 1) until x == n; n = 2, x = 0, z = -3 takes exactly 7 steps

void reach_error(void); int main(void) { int n, x, z, steps; 

n = __VERIFIER_nondet_int(); 
x = __VERIFIER_nondet_int(); 
z = __VERIFIER_nondet_int(); 
__VERIFIER_assume(((x < n) && (z <= x))); 
steps = 0; 
while ((x < n)) { { 
if ((z > x)) { { 
x = (x + 1); } } else { 
{ 
z = (z + 1); } } 

steps = (steps + 1); } } 

if (!(steps < 7)) reach_error(); 
return steps; }
// The C version of summarize_periodic_cycle.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
