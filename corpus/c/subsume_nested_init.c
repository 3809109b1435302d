//! verdict: safe
//! run: input=2,3,1 output=8 result=9
//! run: input=0,0,0 output=0 result=0
//! source: corpus (no seed listing): the shape of seed 002 §6.3.3's generated programs
//! note: nested counting loops up to input values, then a sequential one: plain execution cannot finish (2^31 iterations), and the only checks are initialization checks. `--subsume` proves the three headers together: the variables initialized on every way to a header stay initialized, and the inner loop's exit must reach the outer header's invariant while the outer body must reach the inner one's

void reach_error(void); int main(void) { int x, y, z, s, t, i, j, k, n, m; 

x = __VERIFIER_nondet_int(); 
y = __VERIFIER_nondet_int(); 
z = __VERIFIER_nondet_int(); 
s = 0; 
n = x; 
i = 0; 
while ((i < n)) { { 
m = y; 
j = 0; 
while ((j < m)) { { 
s = (s + z); 
j = (j + 1); } } 

t = (s - y); 
i = (i + 1); } } 

(s + x); 
k = 0; 
while ((k < y)) { { 
s = (s + 1); 
k = (k + 1); } } 

return s; }
// The C version of subsume_nested_init.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
