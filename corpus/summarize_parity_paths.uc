//! verdict: safe
//! run: input=3 output= result=3
//! run: input=0 output= result=0
//! run: input=-4 output= result=0
//! source: corpus (no seed listing): SV-COMP's loop-new/half in micro-c
//! note: the body's two paths test `i % 2`, which no affine condition can state; each path is taken one iteration at a time, so they form a cycle of period (1, 1) whose macro walk moves `i` by 2 and leaves the test invariant: --summarize proves n == k
main() {
  var k, i, n;
  k = input;
  assume(k >= -1000000);
  assume(k <= 1000000);
  i = 0;
  n = 0;
  while (i < 2 * k) {
    if (i % 2 == 0) {
      n = n + 1;
    }
    i = i + 1;
  }
  if (k >= 0) {
    assert(n == k);
  }
  return n;
}
