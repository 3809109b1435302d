//! verdict: violated out-of-bounds line 15
//! run: input=3 output= error=out-of-bounds line 15
//! run: input=1 output= result=1
//! run: input=0 output= result=0
//! source: corpus (no seed listing): found by a soundness review of `--summarize`
//! note: the index x of a memory read is written through p in the loop, so the bounds check asked once at the header (with x = 0) does not cover the second iteration (x = 5); the loop must run plainly

f(x, n) {
  var p, i, s, a;
  a = [1, 2, 3];
  p = &x;
  i = 0;
  s = 0;
  while (i < n) {
    s = s + a[x];
    *p = 5;
    i = i + 1;
  }
  return s;
}

main() {
  var n;
  n = input;
  if (n > 2) {
    n = 2;
  }
  return f(0, n);
}
