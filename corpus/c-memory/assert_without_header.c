//! verdict: violated assert line 12
//! run: input=5 output= error=assert line 12
//! run: input=3 output= result=0
//! source: corpus (no seed listing): `assert` called in a file that does not include `<assert.h>`, as some SV-COMP tasks do
//! note: the call is read as the header's macro, as CBMC reads it: a failing `assert` calls `__assert_fail`, which fails the `unreach-call` property (and ends the run where error functions are ordinary calls)
int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = 0;
  while (y < x) y++;
  assert(x != 5 || y != 5);
  return 0;
}
