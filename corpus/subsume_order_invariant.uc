//! verdict: safe
//! run: input=999999,999999 output= result=2
//! run: input=0,500000,500000 output= result=3
//! source: corpus (no seed listing): SV-COMP's `count_by_nondet`, written in micro-c
//! note: `i` grows by an input clamped to `1 .. 999999` until it reaches 1,000,000, `k` counts the iterations; `k <= 1000000` after the loop needs the invariant `k <= i && k <= 1000000`. `--subsume` proposes the orders of the locals the loop assigns (`k <= i`), keeps the candidates the waiting state satisfies (the annotations hold both `i < 1000000` and its negation, which together are vacuously inductive) and proves the header
main() {
  var i, k, j;
  i = 0;
  k = 0;
  while (i < 1000000) {
    j = input;
    if (j < 1) {
      j = 1;
    }
    if (j > 999999) {
      j = 999999;
    }
    i = i + j;
    k = k + 1;
  }
  assert(k <= 1000000);
  return k;
}
