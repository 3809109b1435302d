//! verdict: violated out-of-bounds line 10
//! run: input=3 output= result=6
//! run: input=0 output= result=0
//! run: input=5 output= error=out-of-bounds line 10
//! source: corpus (no seed listing): a recursive function over an array parameter (a pointer into the caller's array in C, which symex follows since the recursion cannot be inlined), called with an array and with a pointer into it
//! note: `sum(a, n)` adds `a[n - 1]`, ..., `a[0]`; `a` has 4 elements, so n = 5 reads `a[4]` on the first call. Negative n returns 0 at once (the first test)
extern int __VERIFIER_nondet_int(void);
int sum(int a[], int n) {
  if (n <= 0) return 0;
  return a[n - 1] + sum(a, n - 1);
}
int main(void) {
  int a[4] = {1, 2, 3, 4};
  int n = __VERIFIER_nondet_int();
  if (n > 5) return 0;
  int s = sum(a, n);
  if (n > 2) s = s + sum(a + 1, 2) - 5;
  return s;
}
