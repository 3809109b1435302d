//! verdict: violated out-of-bounds line 10
//! run: input=1 output= result=12
//! run: input=0 output= result=8
//! run: input=2 output= error=out-of-bounds line 10
//! source: corpus (no seed listing): the address of a scalar variable passed where a function indexes its parameter (`total(&x, n)`), and one arm of `?:` with an array; C counts a variable as an array of one, so the second element is past its end
//! note: `total(v, n)` adds `v[0]` to `v[n-1]`. With input 1 the program adds `x` (5) through `p = &x` after raising it to 12 through `p[0]`; with input 0, `p` is `a`, `a[0]` becomes 8 and `total(&x, 1)` is not called (the result is `a[0]`). Input 2 asks `total(&x, 2)`, which reads `x`'s second element: `out-of-bounds` at line 10
extern int __VERIFIER_nondet_int(void);
int total(int *v, int n) {
  int s = 0;
  for (int i = 0; i < n; i++) s += v[i];
  return s;
}
int main(void) {
  int x = 5, a[2] = {1, 2};
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 2) return 0;
  int *p = n > 0 ? &x : a;
  p[0] += 7;
  if (n == 0) return a[0];
  return total(&x, n);
}
