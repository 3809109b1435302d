//! verdict: safe
//! run: input=2,1,0 output= result=3
//! run: input=0 output= result=0
//! run: input=-4 output= result=0
//! source: corpus (no seed listing): SV-COMP's `loop-lit/bhmr2007`, written in micro-c
//! note: each iteration adds 1 to `a` and 2 to `b` or the reverse, as an input decides, so `a + b == 3 * i` at the header whatever the choices; neither the loop's condition nor the annotations left by ended paths say so, and plain execution never ends (the input bounds the loop). `--subsume` samples reachable states at the header (models of the waiting state, then the loop's segments run on them), proposes the affine equalities they all satisfy (`a + b == 3 * i`) and proves the header with them and `i <= n`
main() {
  var n, i, a, b, k;
  n = input;
  if (n < 0) {
    n = 0;
  }
  i = 0;
  a = 0;
  b = 0;
  while (i < n) {
    k = input;
    if (k != 0) {
      a = a + 1;
      b = b + 2;
    } else {
      a = a + 2;
      b = b + 1;
    }
    i = i + 1;
  }
  assert(a + b == 3 * n);
  return a;
}
