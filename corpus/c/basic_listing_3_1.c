//! verdict: safe
//! paths: 2
//! run: input=0 output= result=2
//! run: input=3 output= result=1
//! run: input=-4 output= result=0
//! source: 002_6b738ee45e29b48c.txt Code listing 3.1
//! note: verbatim; the division is only executed with z != 0 (Tables 3.1 to 3.5: two paths)

void reach_error(void); int main(void) { int y, z; 

z = __VERIFIER_nondet_int(); 
y = 1; 
if ((z == 0)) { { 
y = 2; } } else { 

{ 
y = (3 / z); } } 

return y; }
// The C version of basic_listing_3_1.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
