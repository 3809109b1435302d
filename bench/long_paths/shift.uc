// Session 44's review (BENCHMARKS.md, "Long paths under depth-first search"): four variables
// shifted by one of six inputs per round, an endless loop; 1,296 states, safe with matching.
main() {
  var a, b, c, d, k, n;
  a = 0; b = 0; c = 0; d = 0; n = 0;
  while (n == 0) {
    k = input;
    if (k < 1 || k > 6) { n = 1; } else {
      if (k == 1) { d = c; c = b; b = a; a = 1; }
      if (k == 2) { d = c; c = b; b = a; a = 2; }
      if (k == 3) { d = c; c = b; b = a; a = 3; }
      if (k == 4) { d = c; c = b; b = a; a = 4; }
      if (k == 5) { d = c; c = b; b = a; a = 5; }
      if (k == 6) { d = c; c = b; b = a; a = 6; }
      assert(!(a == 7 && d == 1));
    }
  }
  return 0;
}
