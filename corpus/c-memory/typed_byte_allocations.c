//! verdict: violated out-of-bounds line 25
//! run: input=3 output= error=out-of-bounds line 25
//! run: input=2 output= result=0
//! run: input=0 output= result=0
//! source: corpus (no seed listing): allocations of a number of bytes converted at once to a pointer to `int` or `long` (`int *a = malloc(4 * n)`, `(long *)calloc(24, 1)`, `realloc(a, 8 * n)`)
//! note: such an allocation makes objects of the pointer's type (a number of bytes that is no whole number of them is refused, or `unknown` where it is computed); 12 bytes hold three `int`s, so `c[3]` is past the allocation when n is 3 or more (out-of-bounds)
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void *malloc(unsigned long);
extern void *calloc(unsigned long, unsigned long);
extern void *realloc(void *, unsigned long);
extern void free(void *);
int main() {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 6) return 0;
  int *a = malloc(4 * n);
  for (int i = 0; i < n; i++) a[i] = i * i;
  a = (int *)realloc(a, 8 * n);
  for (int i = n; i < 2 * n; i++) a[i] = i * i;
  if (a[2 * n - 1] != (2 * n - 1) * (2 * n - 1) || a[0] != 0) reach_error();
  long *b = (long *)calloc(24, 1);
  if (b[2] != 0) reach_error();
  b[1] = a[n - 1];
  int *c = malloc(12);
  c[n] = (int)b[1];
  free(a);
  free(b);
  free(c);
  return 0;
}
