//! verdict: safe
//! run: input=3 output= result=14
//! run: input=0 output= result=2
//! source: corpus (no seed listing): SV-COMP's `jain_*` loops, written in micro-c
//! note: `x` starts at 2 and grows by 4, so it is never 32; the loop's condition and the annotations left by ended paths say nothing about `x`'s low bits, and plain execution never ends (the input bounds the loop). `--subsume` proves the header with the congruence `x & 3 == 2`, which the low-bits analysis (`symex_ir::analysis::LowBits`) proposes
void reach_error(void); int main(void) { int n, i, x; 

n = __VERIFIER_nondet_int(); 
i = 0; 
x = 2; 
while ((i < n)) { { 
x = (x + 4); 
if (!(x != 32)) reach_error(); 
i = (i + 1); } } 

return x; }
// The C version of subsume_congruence.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
