//! verdict: violated assert line 15
//! run: input=0,-1,-1 output= error=assert line 15
//! run: input=1,2,3 output= result=6
//! source: 004_a2c8baa24dd25193.txt Section 2.2 (Example 1)
//! note: the code of Example 1 is missing in the seed; this is the digest reconstruction of the VC 0 <= ITE(a + b < 0, y0, y0 + a + b), with the falsifying assignment a = 0, b = -1, y0 = -1 given by the thesis

void reach_error(void); int main(void) { int a, b, y; 

a = __VERIFIER_nondet_int(); 
b = __VERIFIER_nondet_int(); 
y = __VERIFIER_nondet_int(); 
if ((!((a + b) < 0))) { { 
y = ((y + a) + b); } } 

if (!(0 <= y)) reach_error(); 
return y; }
// The C version of calysto_example1_vc.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
