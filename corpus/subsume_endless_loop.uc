//! verdict: safe
//! source: corpus (no seed listing): SV-COMP's `jain_5-2`, written in micro-c
//! note: `while (1)` never ends, and no state forks at its header: plain execution runs it until the time limit. `--subsume` still tries the header (its condition is constant) and proves `x & 3 == 0 && y & 3 == 0`: `x` grows by `y`, which starts at 4 and grows by 4, so `x` is never 30
main() {
  var x, y;
  x = 0;
  y = 4;
  while (1) {
    x = x + y;
    y = y + 4;
    assert(x != 30);
  }
  return 0;
}
