//! verdict: safe
//! run: input=3 output= result=30
//! run: input=0 output= result=0
//! run: input=-2 output= result=0
//! source: corpus (no seed listing): SV-COMP's loops-crafted-1/nested5-1 in micro-c, one level less deep
//! note: the middle loop writes v (the innermost loop's result) without reading its value at entry, so v is no control local and the outer loop may change it between middle-loop runs; the middle loop's path through the failing check is unreachable (v % 4 == 2): --summarize proves all three loops
main() {
  var n, i, j, v, s;
  n = input;
  i = 0;
  s = 0;
  v = 0;
  while (i < n) {
    j = 0;
    while (j < 10) {
      v = 0;
      while (v < 10) {
        v = v + 1;
      }
      if (v % 4 == 0) {
        assert(0);
      }
      j = j + 1;
    }
    s = s + v;
    i = i + 1;
  }
  if (n > 0) {
    assert(s == 10 * n);
  }
  return s;
}
