//! verdict: safe
//! run: input=2,11 output= result=20
//! run: input=0,50 output= result=0
//! run: input=-3,12 output= result=0
//! source: corpus (no seed listing): nested loops after SV-COMP's loops-crafted-1/nested5-1
//! note: the inner loop has a path through a check that always fails (its run ends inside), which `m > 10` makes unreachable; the outer summary asks that no inner run ends inside (the exit condition holds where it stops) and then uses the inner summary: --summarize proves s == 10 * n
void reach_error(void); int main(void) { int n, m, i, j, s; 

n = __VERIFIER_nondet_int(); 
m = __VERIFIER_nondet_int(); 
__VERIFIER_assume((m > 10)); 
i = 0; 
s = 0; 
while ((i < n)) { { 
j = 0; 
while ((j < 10)) { { 
if ((j == m)) { { 
if (!0) reach_error(); } } 

j = (j + 1); } } 

s = (s + j); 
i = (i + 1); } } 

if ((n > 0)) { { 
if (!(s == (10 * n))) reach_error(); } } 

return s; }
// The C version of summarize_inner_abort.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
