//! verdict: safe
//! run: input=3,1,0 output= result=1
//! run: input=-4,7,7 output= result=1
//! source: 002_6b738ee45e29b48c.txt Code listing 4.13
//! note: verbatim; the inner loop always ends with x == n, so res == n * n after n outer iterations (also modulo 2^32, both sides wrap alike) and 1 / res is 1 / 1; every path is finite

void reach_error(void); int main(void) { int n, x, z, res, i, realX, realZ; 

n = __VERIFIER_nondet_int(); 
x = __VERIFIER_nondet_int(); 
z = __VERIFIER_nondet_int(); 
res = 0; 
if ((n <= 0)) { { 
n = 1; } } 

if ((x >= n)) { { 
x = (n - 1); } } 

if ((z >= n)) { { 
z = (n - 1); } } 

realX = x; 
realZ = z; 

i = 0; 
while ((i < n)) { { 
x = realX; 
z = realZ; 
while ((x < n)) { { 
if ((z > x)) { { 
x = (x + 1); } } else { 

{ 
z = (z + 1); } } } } 


res = (res + x); 
i = (i + 1); } } 


if ((res == (n * n))) { { 
res = 1; } } else { 

{ 
res = 0; } } 


return (1 / res); }
// The C version of loops_nested_4_13.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
