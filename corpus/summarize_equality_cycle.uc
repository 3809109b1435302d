//! verdict: safe
//! run: input=5,20 output= result=10
//! run: input=0,15 output= result=0
//! run: input=9,11 output= result=10
//! source: corpus (no seed listing): an inner loop run at one outer iteration (`if (i == 3)`)
//! note: the outer loop's two paths (`i != 3`, `i == 3`) form a cycle without a period, gone round once since the `==` holds at one iteration: --summarize enumerates its phases one by one (i up to 3, i == 3 with the inner loop, i from 4 on); the inner loop's path through the failing check is unreachable for m > 10
main() {
  var n, m, i, j, s;
  n = input;
  m = input;
  assume(m > 10);
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
