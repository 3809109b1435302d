//! verdict: safe
//! run: input=98,20,100 output= result=14
//! run: input=100,3,4 output= result=3
//! source: 002_6b738ee45e29b48c.txt Code listing 4.11
//! note: the listing returns 1 / (x - z) with undeclared x and z; here it keeps j0 and asserts the inductive invariant j <= 8 || j <= j0 (j - 3 cannot underflow because it runs only for j >= 8); every path is finite because i counts up to 100

void reach_error(void); int main(void) { int i, j, a, j0; 

i = __VERIFIER_nondet_int(); 
j = __VERIFIER_nondet_int(); 
a = __VERIFIER_nondet_int(); 
j0 = j; 
while ((i < 100)) { { 
if ((a <= 5)) { { 
a = (a + 1); } } else { 

{ 
a = (a - 4); } } 

if ((j < 8)) { { 
j = (j + 1); } } else { 

{ 
j = (j - 3); } } 

i = (i + 1); } } 

if (!((j <= 8) || (j <= j0))) reach_error(); 
return j; }
// The C version of loops_irregular_4_11.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
