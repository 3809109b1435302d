//! verdict: safe
//! paths: 1
//! run: input=7 output=2 result=10
//! run: input=0 output=2 result=10
//! source: corpus (interpreter semantics)
//! note: `&&` and `||` short-circuit: the divisions by b == 0 are never evaluated; as values they yield 0 or 1

void reach_error(void); int main(void) { int a, b, r; 

a = __VERIFIER_nondet_int(); 
b = 0; 
r = 0; 
if (((b != 0) && ((a / b) > 1))) { { 
r = 1; } } 

if (((b == 0) || ((a / b) > 1))) { { 
r = (r + 2); } } 

r; 
r = (((b != 0) && ((a / b) > 1)) + (10 * ((b == 0) || ((a / b) > 0)))); 
return r; }
// The C version of interp_short_circuit.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
