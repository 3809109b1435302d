//! verdict: violated div-by-zero line 13
//! run: input=7,0 output= error=div-by-zero line 13
//! run: input=-7,3 output=-1 result=-2
//! run: input=7,-3 output=1 result=-2
//! run: input=-2147483648,-1 output=0 result=-2147483648
//! source: corpus (no seed listing): remainder and quotient by an input
//! note: % by zero is a division by zero; % takes the sign of the dividend, / truncates toward zero, -2147483648 / -1 wraps to -2147483648 and -2147483648 % -1 is 0 (no error)

void reach_error(void); int main(void) { int a, b, r; 

a = __VERIFIER_nondet_int(); 
b = __VERIFIER_nondet_int(); 
r = (a % b); 
r; 
return (a / b); }
// The C version of basic_mod_zero.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
