//! verdict: violated uninit line 28
//! run: input=5 output= result=1
//! run: input=-3 output= result=2
//! run: input=0 output= error=uninit line 28
//! source: 002_6b738ee45e29b48c.txt Code listing 4.1
//! note: someFnc and someFnc2 are not defined in the listing; here they return 1 and 2. The path a > 1 and a < 0 is pruned; for 0 <= a <= 1 res is never assigned

void reach_error(void); int some_fnc(void) { 
return 1; }


int some_fnc2(void) { 
return 2; }


int main(void) { int a, res; 


a = __VERIFIER_nondet_int(); 

if ((a > 1)) { { 
res = some_fnc(); } } 

if ((a < 0)) { { 
res = some_fnc2(); } } 


return res; }
// The C version of pruning_listing_4_1.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
