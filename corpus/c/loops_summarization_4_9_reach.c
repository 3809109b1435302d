//! verdict: violated div-by-zero line 9
//! bound: 9
//! run: input=0,8 output= error=div-by-zero line 9
//! run: input=0,7 output= result=0
//! source: 002_6b738ee45e29b48c.txt Code listing 4.9
//! note: Listing 4.9 with a == 16 instead of a == 15: the error needs exactly 8 iterations (a = 2 * iterations), so a bounded engine needs --unwind 8 or more

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


if ((a == 16)) { { 
r = some_fnc(); } } else { 

{ 
r = some_fnc2(); } } 


return r; }
// The C version of loops_summarization_4_9_reach.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
