// Session 45 (BENCHMARKS.md, "Long paths under depth-first search"): 2,000 rounds of one input
// each; depth-first search reaches the assert after them along 14,000 constraints.
main() {
  var k, n, a, b, stop;
  n = 0; a = 0; b = 0; stop = 0;
  while (n < 2000 && stop == 0) {
    k = input;
    if (k < 1 || k > 6) { stop = 1; } else {
      if (k == 1) { a = a + 1; }
      if (k == 2) { b = b + 1; }
      if (k == 3) { a = b; }
      if (k == 4) { b = a; }
      if (k == 5) { a = 0; }
      if (k == 6) { b = 0; }
      n = n + 1;
    }
  }
  assert(n < 2000);
  return 0;
}
