//! verdict: violated assert line 21
//! verdict: violated assert line 22
//! run: input=3,0 output= error=assert line 21
//! run: input=0,5 output= result=0
//! run: input=-2147483648,1 output= error=assert line 22
//! source: corpus (no seed listing): a struct with a `long` member copied whole (variable to variable, into a heap object and back, into a nested struct whose member's address is taken), then compared beyond 32 bits
//! note: every copy moves the 64-bit member leaf by leaf (lower/memory.rs); a read of a heap word takes the reader's width in the structural engine (docs/engine-structural.md); 3 * 2^32 needs the input's high half 3, and `u` wraps modulo 2^64
extern long __VERIFIER_nondet_long(void);
extern void reach_error(void);
extern void *malloc(unsigned long);
struct acc { int id; long total; };
struct pair { struct acc a; unsigned long long u; };
int main(void) {
  struct acc a; a.id = 1; a.total = __VERIFIER_nondet_long();
  struct acc b = a;
  struct acc *p = malloc(sizeof *p);
  *p = b;
  struct acc c = *p;
  struct pair q; q.a = c; q.u = (unsigned long long)c.total * 2u;
  long *t = &q.a.total;
  if (c.total == 4294967296L * 3) reach_error();
  if (q.u == 2ull && *t != 1) reach_error();
  return 0;
}
