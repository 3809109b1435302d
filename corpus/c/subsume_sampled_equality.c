//! verdict: safe
//! run: input=2,1,0 output= result=3
//! run: input=0 output= result=0
//! run: input=-4 output= result=0
//! source: corpus (no seed listing): SV-COMP's `loop-lit/bhmr2007`, written in micro-c
//! note: each iteration adds 1 to `a` and 2 to `b` or the reverse, as an input decides, so `a + b == 3 * i` at the header whatever the choices; neither the loop's condition nor the annotations left by ended paths say so, and plain execution never ends (the input bounds the loop). `--subsume` samples reachable states at the header (models of the waiting state, then the loop's segments run on them), proposes the affine equalities they all satisfy (`a + b == 3 * i`) and proves the header with them and `i <= n`
void reach_error(void); int main(void) { int n, i, a, b, k; 

n = __VERIFIER_nondet_int(); 
if ((n < 0)) { { 
n = 0; } } 

i = 0; 
a = 0; 
b = 0; 
while ((i < n)) { { 
k = __VERIFIER_nondet_int(); 
if ((k != 0)) { { 
a = (a + 1); 
b = (b + 2); } } else { 
{ 
a = (a + 2); 
b = (b + 1); } } 

i = (i + 1); } } 

if (!((a + b) == (3 * n))) reach_error(); 
return a; }
// The C version of subsume_sampled_equality.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
