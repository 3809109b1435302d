//! verdict: violated use-after-free line 31
//! verdict: violated use-after-free line 35
//! verdict: violated use-after-free line 39
//! verdict: violated use-after-free line 43
//! run: input=0,2 output= result=5
//! run: input=1,2 output= error=use-after-free line 31
//! run: input=2,0 output= error=use-after-free line 35
//! run: input=3,1 output= error=use-after-free line 39
//! run: input=4,3 output= error=use-after-free line 43
//! source: corpus (no seed listing): a struct with array members freed while one of its elements is written
//! note: C stores into `p->a[i]` after evaluating the right side, so a right side that frees `p` (directly, in a called function, in a compound assignment, into a nested struct's array member, or as the whole struct returned) makes the store a use after free, although `p` was live when the left side was formed
extern int __VERIFIER_nondet_int(void);
extern void *malloc(unsigned long);
extern void free(void *);
struct inner { int k; int a[3]; };
struct s { int n; int a[4]; struct inner in; };
int release(struct s *p) { free(p); return 1; }
struct s fresh(struct s *p) {
  struct s t = {0};
  free(p);
  return t;
}
int main() {
  int mode = __VERIFIER_nondet_int();
  int i = __VERIFIER_nondet_int();
  if (i < 0 || i > 3) i = 0;
  struct s *p = malloc(sizeof(struct s));
  p->a[i] = 2;
  p->in.a[1] = 3;
  if (mode == 1) {
    p->a[i] = (free(p), 1);
    return 0;
  }
  if (mode == 2) {
    p->a[i] += release(p);
    return 0;
  }
  if (mode == 3) {
    p->in.a[1] = release(p);
    return 0;
  }
  if (mode == 4) {
    *p = fresh(p);
    return 0;
  }
  int result = p->a[i] + p->in.a[1];
  free(p);
  return result;
}
