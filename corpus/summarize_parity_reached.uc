//! verdict: violated assert line 20
//! bound: 41
//! run: input=20 output= error=assert line 20
//! run: input=1000 output= error=assert line 20
//! source: corpus (no seed listing): summarize_parity_paths.uc with an assertion that n stays below 20
//! note: n reaches k, at least 20: a summary of the parity cycle that counted n wrongly, or ended the loop early, would prove the assertion
main() {
  var k, i, n;
  k = input;
  assume(k >= 20);
  assume(k <= 1000000);
  i = 0;
  n = 0;
  while (i < 2 * k) {
    if (i % 2 == 0) {
      n = n + 1;
    }
    i = i + 1;
  }
  assert(n < 20);
  return n;
}
