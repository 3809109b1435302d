//! verdict: violated assert line 16
//! run: input=-2147483648,-1 output= error=assert line 16
//! run: input=6,-1 output= result=-6
//! run: input=6,3 output= result=0
//! source: corpus (no seed listing): the one overflowing division
//! note: differs under math ints
//! note: x / -1 == x only for x == 0 with unbounded integers; with 32-bit numbers -2147483648 / -1 wraps to -2147483648 (and is not a division error)

void reach_error(void); int main(void) { int x, y, z; 

x = __VERIFIER_nondet_int(); 
y = __VERIFIER_nondet_int(); 
z = 0; 
if ((y == (-1))) { { 
z = (x / y); 
if (!((z != x) || (x == 0))) reach_error(); } } 

return z; }
// The C version of wrap_intmin_div_neg1.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
