//! verdict: safe
//! run: input=0,3 output= result=0
//! run: input=5,1 output= result=0
//! source: 002_6b738ee45e29b48c.txt Code listing 4.9
//! note: some_fnc and some_fnc2 are not defined in the listing; some_fnc divides by zero so that its call is an error location. a = 2 * iterations is even, also modulo 2^32, so a == 15 never holds; every path is finite (i < n bounds the loop)

void reach_error(void); int some_fnc(void) { 
return (1 / 0); }


int some_fnc2(void) { 
return 0; }


int main(void) { int a, i, n, r; 

a = 0; 
i = __VERIFIER_nondet_int(); 
n = __VERIFIER_nondet_int(); 

while ((i < n)) { { 
a = (a + 2); 
i = (i + 1); } } 


if ((a == 15)) { { 
r = some_fnc(); } } else { 

{ 
r = some_fnc2(); } } 


return r; }
// The C version of loops_summarization_4_9.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
