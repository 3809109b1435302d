// Ten sequential ifs on bounded inputs, then checks on their sum: path subsumption prunes
// 1,024 paths to a few dozen states but its coverage checks, over the inputs the rest of the
// path reads, cost more than the paths (BENCHMARKS.md, "Subsumption on sums of bounded
// inputs"). Run from the repository's root:
//   target/release/symex check bench/subsume/bounded_sums.uc --search dfs [--subsume] --stats
main() {
  var s, k;
  s = 0;
  k = input;
  assume(k >= 0 && k < 4);
  if (k > 1) { s = s + k; } else { s = s - 1; }
  k = input;
  assume(k >= 0 && k < 4);
  if (k > 1) { s = s + k; } else { s = s - 1; }
  k = input;
  assume(k >= 0 && k < 4);
  if (k > 1) { s = s + k; } else { s = s - 1; }
  k = input;
  assume(k >= 0 && k < 4);
  if (k > 1) { s = s + k; } else { s = s - 1; }
  k = input;
  assume(k >= 0 && k < 4);
  if (k > 1) { s = s + k; } else { s = s - 1; }
  k = input;
  assume(k >= 0 && k < 4);
  if (k > 1) { s = s + k; } else { s = s - 1; }
  k = input;
  assume(k >= 0 && k < 4);
  if (k > 1) { s = s + k; } else { s = s - 1; }
  k = input;
  assume(k >= 0 && k < 4);
  if (k > 1) { s = s + k; } else { s = s - 1; }
  k = input;
  assume(k >= 0 && k < 4);
  if (k > 1) { s = s + k; } else { s = s - 1; }
  k = input;
  assume(k >= 0 && k < 4);
  if (k > 1) { s = s + k; } else { s = s - 1; }
  assert(s < 91);
  return 10 / (s + 200);
}
