//! verdict: safe
//! run: input=3 output=1,1,1 result=0
//! run: input=-2 output= result=0
//! source: 002_6b738ee45e29b48c.txt Code listing 3.2
//! note: the listing returns an undeclared y; here it returns 0. No operation can fail, so the verdict needs no bound although the number of paths grows with n

void reach_error(void); int main(void) { int i, n; 

n = __VERIFIER_nondet_int(); 
i = 0; 
while ((i < n)) { { 
if ((i < 100)) { { 
1; } } else { 

{ 
2; } } 

i = (i + 1); } } 

return 0; }
// The C version of loops_listing_3_2.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
