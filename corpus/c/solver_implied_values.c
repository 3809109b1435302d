//! verdict: violated assert line 20
//! run: input=1,7,7 output= error=assert line 20
//! run: input=1,3,3 output= result=0
//! run: input=1,3,4 output= result=0
//! run: input=0,0,0 output= result=0
//! source: project (a query of a generated program where Z3 spent seconds)
//! note: the bounds 0 < x < 2 fix x to 1, and x == s then fixes s = 2y - 2z + 1 to 1, so the first assertion is 1 * 1 * 0 == 0; the second fails when y = z = 7
//! note: the forward engine rewrites both assertions with the values the path fixes (the first becomes true without a solver); an engine that substitutes s for x instead faces a 32-bit cubic product

void reach_error(void); int main(void) { int x, y, z, s; 

x = __VERIFIER_nondet_int(); 
y = __VERIFIER_nondet_int(); 
z = __VERIFIER_nondet_int(); 
s = (((2 * y) - (2 * z)) + 1); 
if ((x > 0)) { { 
if ((x < 2)) { { 
if ((x == s)) { { 
if (!(((s * s) * ((-s) / (-2))) == 0)) reach_error(); 
if (!((y * s) != (7 * s))) reach_error(); } } } } } } 



return 0; }
// The C version of solver_implied_values.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
