//! verdict: violated assert line 28
//! run: input=5 output= error=assert line 28
//! run: input=3 output= result=6
//! run: input=9 output= result=0
//! source: corpus (no seed listing): a recursive function that counts its calls in globals (a counter, a struct, a `static` local), as C programs keep statistics
//! note: where a function that uses globals is recursive, `main` keeps the globals in cells and every function that reaches them gets a pointer to each; the counts after `fact(k)` are exact
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int calls = 0;
int depth_max;
struct stats { int sum; int n; } st;
int fact(int n) {
  static int entered = 0;
  entered++;
  calls = calls + 1;
  if (n > depth_max) depth_max = n;
  st.sum += n; st.n++;
  if (n <= 1) return 1;
  return n * fact(n - 1);
}
int main() {
  int k = __VERIFIER_nondet_int();
  if (k < 1 || k > 6) return 0;
  int *p = &calls;
  int r = fact(k);
  if (*p != k) reach_error();
  if (st.n != k || st.sum != k * (k + 1) / 2) reach_error();
  if (k == 5 && r == 120 && depth_max == 5) reach_error();
  return r;
}
