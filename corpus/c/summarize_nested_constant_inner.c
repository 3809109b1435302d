//! verdict: safe
//! run: input=3 output= result=30
//! run: input=0 output= result=0
//! run: input=7 output= result=70
//! source: corpus (no seed listing): nested loop summarization, inner loop first (seed 002 §4.4.3)
//! note: the inner loop restarts j at 0 and adds 1 to s ten times per outer iteration (an amount independent of s), so s == 10 * n after the outer loop, modulo 2^32 on both sides; n is unbounded, so plain execution cannot finish, while the outer summary with the inner loop's result as a loop-invariant step proves the assertion

void reach_error(void); int main(void) { int i, j, n, s; 

n = __VERIFIER_nondet_int(); 
__VERIFIER_assume((n >= 0)); 
i = 0; 
s = 0; 
while ((i < n)) { { 
j = 0; 
while ((j < 10)) { { 
s = (s + 1); 
j = (j + 1); } } 

i = (i + 1); } } 

if (!(s == (10 * n))) reach_error(); 
return s; }
// The C version of summarize_nested_constant_inner.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
