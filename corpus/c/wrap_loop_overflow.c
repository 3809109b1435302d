//! verdict: violated assert line 17
//! bound: 4
//! run: input=1 output= error=assert line 17
//! run: input=2000000000 output= result=1
//! source: corpus (no seed listing): a loop that stops only because the counter wraps around
//! note: differs under math ints
//! note: with unbounded integers the loop never stops for i > 0, so the assertion is never reached; with 32-bit numbers 0 < i <= 147483647 gives exactly 3 iterations

void reach_error(void); int main(void) { int i, c; 

i = __VERIFIER_nondet_int(); 
c = 0; 
while ((i > 0)) { { 
i = (i + 1000000000); 
c = (c + 1); } } 

if (!(c < 3)) reach_error(); 
return c; }
// The C version of wrap_loop_overflow.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
