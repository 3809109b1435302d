//! verdict: safe
//! paths: 2
//! run: input=4 output= result=8
//! run: input=-4 output= result=0
//! source: corpus (no seed listing): uninitialized read made unreachable by correlated branches
//! note: y is assigned only when x > 0 and read only when x > 0

void reach_error(void); int main(void) { int x, y, r; 

x = __VERIFIER_nondet_int(); 
if ((x > 0)) { { 
y = (x * 2); } } 

r = 0; 
if ((x > 0)) { { 
r = y; } } 

return r; }
// The C version of basic_uninit_guarded.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
