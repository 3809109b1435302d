// Session 45 (BENCHMARKS.md, "Symbolic states"): a mode read before an endless loop keeps every
// state symbolic; safe only with state matching of symbolic states.
main() {
  var mode, s, k, stop;
  mode = input; s = 0; stop = 0;
  while (stop == 0) {
    k = input;
    if (k == 0) { stop = 1; } else {
      if (mode > 10) { s = 1 - s; } else { s = 0; }
      assert(!(s == 1 && mode < 5));
    }
  }
  return 0;
}
