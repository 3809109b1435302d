//! verdict: safe
//! run: input=5,0,3 output= result=0
//! run: input=2147483647,0,3 output= result=0
//! source: 002_6b738ee45e29b48c.txt Code listing 4.3
//! note: Listing 4.3 with the increment guarded against overflow, so the thesis claim holds with 32-bit numbers: x >= y is an inductive invariant, every path is finite (i < n bounds the loop), and 1 / 0 is unreachable for every number of iterations

void reach_error(void); int main(void) { int x, y, i, n; 

x = __VERIFIER_nondet_int(); 
i = __VERIFIER_nondet_int(); 
n = __VERIFIER_nondet_int(); 
y = x; 
while ((i < n)) { { 
if ((x < 2147483647)) { { 
x = (x + 1); } } 

i = (i + 1); } } 

if ((x < y)) { { 
x = (1 / 0); } } 

return 0; }
// The C version of loops_subsumption_4_3_nowrap.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
