//! verdict: violated assert line 26
//! bound: 5
//! run: input=4,0 output= error=assert line 26
//! run: input=2,5 output= result=8
//! run: input=3,-1 output= result=14
//! source: corpus (no seed listing): summarize_inner_written_only.uc's shape with an inner loop that may not run
//! note: the inner loop writes w without reading it; for m <= 0 it runs no iteration and w keeps the 7 of the previous outer iteration, so s = 7 * (n - 1): an outer summary that gave w any value of the inner run would miss s == 21
main() {
  var n, m, i, j, w, s;
  n = input;
  m = input;
  i = 0;
  s = 0;
  w = 0;
  while (i < n) {
    j = 0;
    while (j < m) {
      w = j;
      j = j + 1;
    }
    s = s + w;
    w = 7;
    i = i + 1;
  }
  if (m <= 0) {
    assert(s != 21);
  }
  return s;
}
