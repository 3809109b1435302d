//! verdict: safe
//! run: input=1,2,3 output= result=-2
//! run: input=1,2,1,3,1 output= result=-2
//! run: input=2,3,1,1,1,2 output= result=-2
//! source: corpus (no seed listing): a reactive loop in the style of SV-COMP's ECA and product-line tasks (one of three inputs per round, a few small state variables)
//! note: the loop reads one input per round and goes on for every input from 1 to 3, so infinitely many paths never end (only those that read another number do), and path subsumption finds nothing to prove at the header. The observed state variables (`mode`, `pump`; `level` is never read) take 4 combinations in all: `--match-states` prunes every state that returns to the loop header as one seen there before and proves the assertion (`pump` is 2 only in mode 3)
void reach_error(void); int main(void) { int mode, level, pump, k, running; 

mode = 1; 
level = 0; 
pump = 0; 
running = 1; 
while ((running == 1)) { { 
k = __VERIFIER_nondet_int(); 
if (((k < 1) || (k > 3))) { { 
running = 0; } } else { 
{ 
if (((k == 1) && (mode == 1))) { { 
mode = 2; 
pump = 1; } } else { 
{ 
if (((k == 2) && (mode == 2))) { { 
mode = 3; 
level = 4; } } else { 
{ 
if (((k == 3) && (mode == 3))) { { 
mode = 1; 
pump = 0; 
level = 0; } } else { 
{ 
if ((((k == 1) && (mode == 3)) && (pump == 1))) { { 
pump = 2; } } } } } } } } 




if ((mode == 2)) { { 
if (!(pump != 2)) reach_error(); } } } } } } 



return (-2); }
// The C version of match_states_reactive.uc, written by crates/engine/tests/c_equivalence.rs: `input` is __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` just evaluates e (so run: lines print nothing).
