//! verdict: violated div-by-zero line 24
//! bound: 2
//! run: input=2147483647,0,0,1 output= error=div-by-zero line 24
//! run: input=3,0,0,4 output= result=0
//! source: 002_6b738ee45e29b48c.txt Code listing 4.5
//! note: differs under math ints
//! note: nested loops; unreachable with unbounded integers (x only grows), reachable with 32-bit numbers after one inner iteration from x = 2147483647

void reach_error(void); int main(void) { int x, y, i, j, n; 

x = __VERIFIER_nondet_int(); 
i = __VERIFIER_nondet_int(); 
j = __VERIFIER_nondet_int(); 
n = __VERIFIER_nondet_int(); 
y = x; 
while ((i < n)) { { 
i = (i + 1); 
while ((j < n)) { { 
x = (x + 1); 
j = (j + 1); } } } } 


if ((x < y)) { { 
x = (1 / 0); } } 

return 0; }
// The C version of loops_subsumption_4_5.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
