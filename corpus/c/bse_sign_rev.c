//! verdict: violated assert line 18
//! entry: sign_rev
//! run: input=1,0 output= error=assert line 18
//! run: input=-5,0 output= result=1
//! run: input=3,-1 output= result=-1
//! run: input=0,7 output= result=0
//! source: 000_6d17974f8ef63168.txt Listing 2.1
//! note: the thesis motivating fragment (y mistyped for x); a model is x=1, y=0; the else-if chain is kept, the returns become one final return

void reach_error(void); int sign_rev(int x, int y) { int r; 

x = (-x); 
if ((x > 0)) { { 
r = 1; } } else { 
if ((y < 0)) { { 
r = (-1); } } else { 
{ 
if (!(x == 0)) reach_error(); 
r = 0; } } } 

return r; }


int main(void) { int x, y; 

x = __VERIFIER_nondet_int(); 
y = __VERIFIER_nondet_int(); 
return sign_rev(x, y); }
// The C version of bse_sign_rev.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
