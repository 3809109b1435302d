//! verdict: violated assert line 18
//! run: input=3 output= error=assert line 18
//! run: input=1 output= result=0
//! run: input=0 output= result=0
//! source: corpus (no seed listing): found by a soundness review of `--summarize`
//! note: the loop reads the parameter x, whose address is taken, and writes it through p; x is no invariant of the loop (0, then 1), so the loop must not be summarized with x's start value (it was, and `--summarize` answered safe). Parameters get no `Init` checks, which is how they slipped past the address-taken test

f(x, n) {
  var p, i, s;
  p = &x;
  i = 0;
  s = 0;
  while (i < n) {
    s = s + x;
    *p = 1;
    i = i + 1;
  }
  assert(s < 2);
  return s;
}

main() {
  var n;
  n = input;
  if (n > 3) {
    n = 3;
  }
  return f(0, n);
}
