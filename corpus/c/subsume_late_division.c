//! verdict: violated div-by-zero line 14
//! run: input=30 output= error=div-by-zero line 14
//! run: input=20 output= result=-100
//! run: input=-3 output= result=0
//! source: corpus (no seed listing): a guard against wrong pruning by path subsumption
//! note: the division by c - 20 fails only in the 21st iteration of an input-bounded loop. No inductive invariant of the header is safe (every candidate that excludes c == 20 is broken by the step c = c + 1, and the vacuous `!(c < n)` covers no state that comes round), so the states must run on and find the error; a wrong invariant would hide it

void reach_error(void); int main(void) { int n, c, q; 

n = __VERIFIER_nondet_int(); 
c = 0; 
q = 0; 
while ((c < n)) { { 
q = (100 / (c - 20)); 
c = (c + 1); } } 

return q; }
// The C version of subsume_late_division.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
