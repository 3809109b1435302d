//! verdict: violated assert line 23
//! run: input=1 output= result=3
//! run: input=0 output= result=5
//! run: input=-4 output= error=assert line 23
//! source: corpus (no seed listing): seed 002's listing 4.7 inside a loop
//! note: `a` is concrete (2 or 4) on each side of the first if and the loop tests it three times: qce keeps the states apart (a hot variable), aggressive merges them into an ite; the third side reaches the failing assert

main() {
  var x, a, i, s;
  x = input;
  if (x > 0) {
    a = 2;
  } else {
    a = 4;
  }
  s = 0;
  i = 0;
  while (i < 3) {
    if (a > 3) { s = s + 1; }
    i = i + 1;
  }
  if (x < 0 - 3) {
    assert(s == 0);
  }
  return a + 1;
}
