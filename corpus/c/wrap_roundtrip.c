//! verdict: safe
//! paths: 1
//! run: input=5 output= result=5
//! run: input=-2147483648 output= result=-2147483648
//! source: corpus (no seed listing): wrap-around that restores the value
//! note: differs under math ints
//! note: adding 2147483647 twice and then 2 adds 2^32, which is the identity on 32-bit numbers; with unbounded integers y == x + 4294967296 and the assertion fails for every x

void reach_error(void); int main(void) { int x, y; 

x = __VERIFIER_nondet_int(); 
y = (x + 2147483647); 
y = (y + 2147483647); 
y = (y + 2); 
if (!(y == x)) reach_error(); 
return y; }
// The C version of wrap_roundtrip.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
