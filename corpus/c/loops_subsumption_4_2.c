//! verdict: violated div-by-zero line 26
//! run: input=0,-2147483648 output= error=div-by-zero line 26
//! run: input=0,-5 output= result=0
//! run: input=1 output= result=0
//! source: 002_6b738ee45e29b48c.txt Code listing 4.2
//! note: differs under math ints
//! note: the thesis proves its line 19 (x = 1 / 0) unreachable with unbounded integers; with 32-bit numbers y = -2147483648 stays negative after y = 0 - y, so x < 0 and 1 / 0 runs

void reach_error(void); int main(void) { int x, y; 

x = 0; 
if (__VERIFIER_nondet_int()) { { } } else { 


{ 
y = __VERIFIER_nondet_int(); 
if ((y < 0)) { { 
y = (0 - y); } } 

x = (x + y); } } 

if ((x >= 0)) { { } } else { 


{ 
x = (1 / 0); } } 

return 0; }
// The C version of loops_subsumption_4_2.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
