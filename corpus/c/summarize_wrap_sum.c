//! verdict: violated assert line 18
//! bound: 22
//! run: input=22 output= error=assert line 18
//! run: input=21 output= result=2100000000
//! run: input=-1 output= result=0
//! source: corpus (no seed listing): a summarized sum that wraps around
//! note: s = 100000000 * iterations modulo 2^32; 22 iterations give 2200000000, which wraps to a negative number: the closed form must wrap exactly like the program

void reach_error(void); int main(void) { int i, n, s; 

n = __VERIFIER_nondet_int(); 
s = 0; 
i = 0; 
while ((i < n)) { { 
s = (s + 100000000); 
i = (i + 1); } } 

if (!(s >= 0)) reach_error(); 
return s; }
// The C version of summarize_wrap_sum.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
