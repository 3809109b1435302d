//! verdict: violated assert line 23
//! run: input=1,2 output= result=3
//! run: input=3,0 output= result=3
//! run: input=3,3 output= error=assert line 23
//! run: input=0,0 output= result=0
//! source: corpus (no seed listing): a counter kept in a `static` local across calls, with a block-scope `extern` and character constants
//! note: a `static` local keeps its value from call to call (a global named `next.count`); `extern int limit;` inside `main` names the global, not a new local; `'A'` is the int 65
extern int __VERIFIER_nondet_int(void);
void reach_error(void);
int limit = 3;
int next(void) {
  static int count;
  count++;
  return count;
}
int main() {
  int a = __VERIFIER_nondet_int();
  int b = __VERIFIER_nondet_int();
  if (a < 0 || a > 5 || b < 0 || b > 5) return 0;
  int last = 0;
  int i;
  for (i = 0; i < a + b; i++) last = next();
  { extern int limit; if (last > limit + ('A' - 65) + 2) reach_error(); }
  return last;
}
