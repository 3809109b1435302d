//! verdict: violated out-of-bounds line 19
//! verdict: violated use-after-free line 22
//! run: input=3,1 output= result=2
//! run: input=3,3 output= error=out-of-bounds line 19
//! run: input=4,3 output= error=use-after-free line 22
//! run: input=9,0 output= result=0
//! source: corpus (no seed listing): an array of as many ints as an input asks (1 to 8) made by malloc, filled, read at a second input, freed, then read again when the value read was 6
//! note: the count is not a constant, so the run forks over the array's lengths (lower/allocation.rs); reading at index n is one past the end (SV-COMP's valid-deref), and the read after free needs n >= 4 and k = 3
extern int __VERIFIER_nondet_int(void);
extern void *malloc(unsigned long);
extern void free(void *);
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 8) return 0;
  int *a = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) a[i] = 2 * i;
  int k = __VERIFIER_nondet_int();
  int s = 0;
  if (k >= 0 && k <= n) s = a[k];
  free(a);
  if (s == 6)
    return a[0];
  return s;
}
