//! verdict: violated uninit line 19
//! run: input=1 output= result=3
//! run: input=0 output= error=uninit line 19
//! source: corpus (no seed listing): `malloc` leaves an object indeterminate, `calloc` zeroes it
//! note: the member b of the malloc'ed object is assigned only when the input is non-zero
extern int __VERIFIER_nondet_int(void);
extern void *malloc(unsigned long);
extern void *calloc(unsigned long, unsigned long);
struct pair {
  int a;
  int b;
};
int main() {
  struct pair *z = calloc(1, sizeof(struct pair));
  struct pair *m = malloc(sizeof(*m));
  m->a = 1;
  if (__VERIFIER_nondet_int())
    m->b = 2;
  return z->a + z->b + m->a + m->b;
}
