//! verdict: violated assert line 19
//! bound: 6
//! run: input=1,5 output= error=assert line 19
//! run: input=3,20 output= result=30
//! run: input=0,7 output= result=0
//! source: corpus (no seed listing): summarize_inner_abort.uc with `m >= 5`
//! note: for 5 <= m < 10 the inner run ends at the failing check in the first outer iteration: the outer summary must not use the inner one there, so plain execution reaches the check
main() {
  var n, m, i, j, s;
  n = input;
  m = input;
  assume(m >= 5);
  i = 0;
  s = 0;
  while (i < n) {
    j = 0;
    while (j < 10) {
      if (j == m) {
        assert(0);
      }
      j = j + 1;
    }
    s = s + j;
    i = i + 1;
  }
  if (n > 0) {
    assert(s == 10 * n);
  }
  return s;
}
