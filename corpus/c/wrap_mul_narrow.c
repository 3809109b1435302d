//! verdict: violated assert line 12
//! run: input=-1431244243 output= error=assert line 12
//! run: input=411522 output= result=1234566
//! source: corpus (no seed listing): a condition met by a single 32-bit input
//! note: differs under math ints
//! note: 1234567 is not a multiple of 3, so with unbounded integers the assertion holds; with 32-bit numbers x = -1431244243 is the only solution of x * 3 == 1234567

void reach_error(void); int main(void) { int x, y; 

x = __VERIFIER_nondet_int(); 
y = (x * 3); 
if (!(y != 1234567)) reach_error(); 
return y; }
// The C version of wrap_mul_narrow.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
