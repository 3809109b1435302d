//! verdict: violated assert line 23
//! run: input=1 output= result=3
//! run: input=0 output= result=5
//! run: input=-4 output= error=assert line 23
//! source: corpus (no seed listing): seed 002's listing 4.7 inside a loop
//! note: `a` is concrete (2 or 4) on each side of the first if and the loop tests it three times: qce keeps the states apart (a hot variable), aggressive merges them into an ite; the third side reaches the failing assert

void reach_error(void); int main(void) { int x, a, i, s; 

x = __VERIFIER_nondet_int(); 
if ((x > 0)) { { 
a = 2; } } else { 
{ 
a = 4; } } 

s = 0; 
i = 0; 
while ((i < 3)) { { 
if ((a > 3)) { { s = (s + 1); } } 
i = (i + 1); } } 

if ((x < (0 - 3))) { { 
if (!(s == 0)) reach_error(); } } 

return (a + 1); }
// The C version of merge_hot_variable_loop.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
