//! verdict: violated assert line 21
//! bound: 6
//! run: input=4,7 output= error=assert line 21
//! run: input=4,5 output= error=assert line 21
//! run: input=3,5 output= result=0
//! run: input=9,11 output= result=10
//! source: corpus (no seed listing): summarize_equality_cycle.uc with `m >= 5`
//! note: for 5 <= m < 10 the inner run at i == 3 ends at the failing check: the state is split there, plain execution reaches the check, and the summary serves m >= 10, where the assertion after the loop holds
main() {
  var n, m, i, j, s;
  n = input;
  m = input;
  assume(m >= 5);
  i = 0;
  s = 0;
  while (i < n) {
    if (i == 3) {
      j = 0;
      while (j < 10) {
        if (j == m) {
          assert(0);
        }
        j = j + 1;
      }
      s = s + j;
    }
    i = i + 1;
  }
  if (n > 3) {
    assert(s == 10);
  }
  return s;
}
