//! verdict: safe
//! run: input=4 output= result=6
//! run: input=6 output= result=15
//! run: input=0 output= result=0
//! source: corpus (no seed listing): a nested loop whose outer loop cannot be summarized (seed 002 §4.4.3)
//! note: the inner loop runs i times, and i changes in every outer iteration, so its result is no loop-invariant step of the outer loop: the outer loop runs plainly (at most 6 iterations) and the inner loop is summarized at each visit; s == n * (n - 1) / 2

void reach_error(void); int main(void) { int i, j, n, s; 

n = __VERIFIER_nondet_int(); 
__VERIFIER_assume(((n >= 0) && (n <= 6))); 
i = 0; 
s = 0; 
while ((i < n)) { { 
j = 0; 
while ((j < i)) { { 
s = (s + 1); 
j = (j + 1); } } 

i = (i + 1); } } 

if (!((2 * s) == (n * (n - 1)))) reach_error(); 
return s; }
// The C version of summarize_nested_unsummarized.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
