//! verdict: safe
//! run: input=5 output= result=5
//! run: input=0 output= result=0
//! run: input=-4 output= result=0
//! source: corpus (no seed listing): SV-COMP's loop-invgen/up in micro-c
//! note: the second loop's body has a path through a check that always fails (`__VERIFIER_assert` without `abort`); no run comes back from it, so the loop is sequential and --summarize proves that k counts down from n to 1 while j < n

main() {
  var n, i, k, j;
  n = input;
  i = 0;
  k = 0;
  while (i < n) {
    i = i + 1;
    k = k + 1;
  }
  j = 0;
  while (j < n) {
    if (k <= 0) {
      assert(0);
    }
    j = j + 1;
    k = k - 1;
  }
  return j;
}
