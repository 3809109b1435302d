//! verdict: safe
//! run: input=4 output= result=6
//! run: input=6 output= result=15
//! run: input=0 output= result=0
//! source: corpus (no seed listing): a nested loop whose outer loop cannot be summarized (seed 002 §4.4.3)
//! note: the inner loop runs i times, and i changes in every outer iteration, so its result is no loop-invariant step of the outer loop: the outer loop runs plainly (at most 6 iterations) and the inner loop is summarized at each visit; s == n * (n - 1) / 2

main() {
  var i, j, n, s;
  n = input;
  assume(n >= 0 && n <= 6);
  i = 0;
  s = 0;
  while (i < n) {
    j = 0;
    while (j < i) {
      s = s + 1;
      j = j + 1;
    }
    i = i + 1;
  }
  assert(2 * s == n * (n - 1));
  return s;
}
