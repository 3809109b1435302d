//! verdict: violated null-deref line 16
//! run: input=1 output= result=7
//! run: input=0 output= error=null-deref line 16
//! source: corpus (no seed listing): a pointer that a branch leaves null, read through `->`
//! note: the counterexample needs the input 0
extern int __VERIFIER_nondet_int(void);
struct cell {
  int value;
};
int main() {
  struct cell c = {7};
  struct cell *p = 0;
  if (__VERIFIER_nondet_int()) {
    p = &c;
  }
  return p->value;
}
