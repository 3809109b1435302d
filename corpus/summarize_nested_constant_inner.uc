//! verdict: safe
//! run: input=3 output= result=30
//! run: input=0 output= result=0
//! run: input=7 output= result=70
//! source: corpus (no seed listing): nested loop summarization, inner loop first (seed 002 §4.4.3)
//! note: the inner loop restarts j at 0 and adds 1 to s ten times per outer iteration (an amount independent of s), so s == 10 * n after the outer loop, modulo 2^32 on both sides; n is unbounded, so plain execution cannot finish, while the outer summary with the inner loop's result as a loop-invariant step proves the assertion

main() {
  var i, j, n, s;
  n = input;
  assume(n >= 0);
  i = 0;
  s = 0;
  while (i < n) {
    j = 0;
    while (j < 10) {
      s = s + 1;
      j = j + 1;
    }
    i = i + 1;
  }
  assert(s == 10 * n);
  return s;
}
