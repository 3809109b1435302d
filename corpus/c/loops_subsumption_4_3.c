//! verdict: violated div-by-zero line 20
//! bound: 2
//! run: input=2147483647,0,1 output= error=div-by-zero line 20
//! run: input=5,0,3 output= result=0
//! source: 002_6b738ee45e29b48c.txt Code listing 4.3
//! note: differs under math ints
//! note: with unbounded integers x only grows and the annotation x >= y is inductive (the thesis example); with 32-bit numbers one iteration from x = 2147483647 wraps x below y

void reach_error(void); int main(void) { int x, y, i, n; 

x = __VERIFIER_nondet_int(); 
i = __VERIFIER_nondet_int(); 
n = __VERIFIER_nondet_int(); 
y = x; 
while ((i < n)) { { 
x = (x + 1); 
i = (i + 1); } } 

if ((x < y)) { { 
x = (1 / 0); } } 

return 0; }
// The C version of loops_subsumption_4_3.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
