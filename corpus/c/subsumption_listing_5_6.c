//! verdict: safe
//! paths: 2
//! run: input=4,0 output= result=0
//! run: input=4,-3 output= result=0
//! source: 002_6b738ee45e29b48c.txt Code listing 5.6
//! source: 002_6b738ee45e29b48c.txt Code listing 5.7
//! note: verbatim (5.6 and 5.7 are the same program with different annotations); i is never zero at 1 / i and x < y never holds

void reach_error(void); int main(void) { int x, y, i; 

x = __VERIFIER_nondet_int(); 
i = __VERIFIER_nondet_int(); 
y = x; 
if ((i == 0)) { { 
i = 1; } } 

i = (1 / i); 
if ((x < y)) { { 
x = (1 / 0); } } 

return 0; }
// The C version of subsumption_listing_5_6.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
