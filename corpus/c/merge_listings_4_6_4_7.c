//! verdict: safe
//! paths: 4
//! run: input=1,1 output=0 result=1
//! run: input=0,0 output=1 result=0
//! run: input=0,5 output=1 result=1
//! source: 002_6b738ee45e29b48c.txt Code listing 4.6
//! source: 002_6b738ee45e29b48c.txt Code listing 4.7
//! note: the two state-merging fragments joined into one main; merging after the first if creates no ite, merging after the second makes a symbolic but never zero

void reach_error(void); int main(void) { int a; 

if (__VERIFIER_nondet_int()) { { 
0; } } else { 

{ 
1; } } 

a = 0; 
if (__VERIFIER_nondet_int()) { { 
a = 1; } } else { 

{ 
a = 2; } } 

return (1 / a); }
// The C version of merge_listings_4_6_4_7.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
