//! verdict: violated out-of-bounds line 15
//! verdict: violated assert line 18
//! run: input=3 output= result=3
//! run: input=5 output= error=out-of-bounds line 15
//! run: input=4 output= error=assert line 18
//! source: corpus (no seed listing): a pointer walk that writes as many elements as an input asks for into an array of four, then checks the last one written through a pointer from the other end
//! note: up to four writes stay inside `buf`, a fifth is out of bounds (SV-COMP's valid-deref); after four, `last` (one before `end`, which is `buf + 4`) holds 3, which the assertion wrongly excludes
extern int __VERIFIER_nondet_int(void);
void reach_error(void);
int main(void) {
  int buf[4] = {0};
  int *p = buf;
  int n = __VERIFIER_nondet_int();
  if (n < 0) return 0;
  for (int i = 0; i < n; i++) { *p = i; p++; }
  int *end = buf + 4;
  int *last = end - 1;
  if (n == 4 && *last == 3) reach_error();
  return p - buf;
}
