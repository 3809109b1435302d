//! verdict: safe
//! source: corpus (no seed listing): SV-COMP's `jain_5-2`, written in micro-c
//! note: `while (1)` never ends, and no state forks at its header: plain execution runs it until the time limit. `--subsume` still tries the header (its condition is constant) and proves `x & 3 == 0 && y & 3 == 0`: `x` grows by `y`, which starts at 4 and grows by 4, so `x` is never 30
void reach_error(void); int main(void) { int x, y; 

x = 0; 
y = 4; 
while (1) { { 
x = (x + y); 
y = (y + 4); 
if (!(x != 30)) reach_error(); } } 

return 0; }
// The C version of subsume_endless_loop.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
