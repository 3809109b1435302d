//! verdict: violated assert line 22
//! run: input=1 output= error=assert line 22
//! run: input=2 output= result=1705032704
//! run: input=0 output= result=0
//! source: corpus (no seed listing): nested loop summarization with 32-bit wrap-around
//! note: each outer iteration adds 3 * 1000000000 to s, which wraps to -1294967296 after the first one (with unbounded integers s would never be negative); two iterations give 6000000000 - 2^32 = 1705032704

void reach_error(void); int main(void) { int i, j, n, s; 

n = __VERIFIER_nondet_int(); 
__VERIFIER_assume((n >= 0)); 
i = 0; 
s = 0; 
while ((i < n)) { { 
j = 0; 
while ((j < 3)) { { 
s = (s + 1000000000); 
j = (j + 1); } } 

i = (i + 1); } } 

if (!(s >= 0)) reach_error(); 
return s; }
// The C version of summarize_nested_wrap.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
