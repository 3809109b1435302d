//! verdict: safe
//! run: input=2,11 output= result=20
//! run: input=0,50 output= result=0
//! run: input=-3,12 output= result=0
//! source: corpus (no seed listing): nested loops after SV-COMP's loops-crafted-1/nested5-1
//! note: the inner loop has a path through a check that always fails (its run ends inside), which `m > 10` makes unreachable; the outer summary asks that no inner run ends inside (the exit condition holds where it stops) and then uses the inner summary: --summarize proves s == 10 * n
main() {
  var n, m, i, j, s;
  n = input;
  m = input;
  assume(m > 10);
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
