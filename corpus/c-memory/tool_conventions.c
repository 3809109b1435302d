//! verdict: violated assert line 27
//! verdict: violated assert line 28
//! run: input=4,4,0,0,0,0,0,0 output= error=assert line 27
//! run: input=1,0,0,0,12345,0,0,0 output= error=assert line 28
//! run: input=1,0,0,0,5,7,2,3 output= result=0
//! source: corpus (no seed listing): inputs, assumptions and assertions as KLEE's and CBMC's users write them
//! note: `klee_make_symbolic` makes every integer of the objects inputs (a scalar, an array, a struct's members, in that order), `klee_range` an input within its bounds, `nondet_int` (CBMC) an input; `klee_assume` and `__CPROVER_assume` end the runs that break them; `__CPROVER_assert` and `klee_assert` are assertions
void klee_make_symbolic(void *addr, unsigned long size, const char *name);
void klee_assume(unsigned long condition);
void klee_assert(int condition);
int klee_range(int begin, int end, const char *name);
int nondet_int(void);
void __CPROVER_assume(_Bool c);
void __CPROVER_assert(_Bool c, const char *msg);
struct point { int x; short y; };
int main() {
  int a;
  klee_make_symbolic(&a, sizeof(a), "a");
  int buf[3];
  klee_make_symbolic(buf, sizeof(buf), "buf");
  struct point p;
  klee_make_symbolic(&p, sizeof(p), "p");
  klee_assume(a > 0);
  int r = klee_range(0, 3, "r");
  int n = nondet_int();
  __CPROVER_assume(n < 10);
  __CPROVER_assert(buf[r] != a + n || p.y == 7, "no match");
  klee_assert(p.x != 12345);
  return 0;
}
