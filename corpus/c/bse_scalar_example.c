//! verdict: violated assert line 12
//! entry: scalar_example
//! run: input=1 output= error=assert line 12
//! run: input=7 output= result=2
//! source: 001_562a05b4de5cb22e.txt Listing 1.1
//! note: ScalarExample: fails exactly when a == 1; c is irrelevant to the assertion

void reach_error(void); int scalar_example(int a) { int b, c; 

b = 1; 
c = 2; 
if (!(a != b)) reach_error(); 
return c; }


int main(void) { int a; 

a = __VERIFIER_nondet_int(); 
return scalar_example(a); }
// The C version of bse_scalar_example.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
