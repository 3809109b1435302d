//! verdict: violated use-after-return line 25
//! run: input=0 output= result=20
//! run: input=1 output= result=11
//! run: input=2 output= error=use-after-return line 25
//! source: corpus (no seed listing): a pointer to a function's local variable, stored in a caller's struct, outlives the function (ASan's stack-use-after-return)
//! note: `remember(&box, k)` adds `k` to the running total through `box.last`, which points to the caller's `total` for inputs 0 and 1 (results 20 + 0 and 10 + 1, as gcc computes them). With input 2 it points `box.last` at its own local `scratch`, which ends when `remember` returns: reading `*box.last` in `main` afterwards is a `use-after-return` at line 25
extern int __VERIFIER_nondet_int(void);
struct holder {
  int *last;
};
void remember(struct holder *h, int *total, int k) {
  int scratch = *total + k;
  if (k == 2)
    h->last = &scratch;
  else
    h->last = total;
  *h->last += k;
}
int main(void) {
  int k = __VERIFIER_nondet_int();
  if (k < 0 || k > 2) return 0;
  int total = 10 * (2 - k);
  struct holder box;
  remember(&box, &total, k);
  return *box.last;
}
