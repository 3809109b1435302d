#!/bin/bash
# Arrays written at input indices, two symex binaries side by side (BENCHMARKS.md, "Write
# logs"): a global array of N counters raised W times at an input index each, then read at
# another input index; `reach_error()` under `count[j] > W` is unreachable (safe), under
# `count[j] > W - 1` reached when every input is `j` (violated). One process at a time,
# `--timeout 30`; prints
# `N W expected | old: verdict seconds | new: verdict seconds`.
# Run from the repository's root:  bench/write_log/compare.sh OLD NEW
set -u
old=$1
new=$2
work=$(mktemp -d)
for n in 100 1000 10000; do
  for w in 4 8; do
    for expected in safe violated; do
      bound=$w
      [ "$expected" = violated ] && bound=$((w - 1))
      cat > "$work/counters.c" <<PROGRAM
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
int count[$n];
int main(void) {
  for (int k = 0; k < $w; k++) {
    int i = __VERIFIER_nondet_int();
    if (i < 0 || i >= $n) return 0;
    count[i] = count[i] + 1;
  }
  int j = __VERIFIER_nondet_int();
  if (j < 0 || j >= $n) return 0;
  if (count[j] > $bound) reach_error();
  return 0;
}
PROGRAM
      row="$n $w $expected"
      for symex in "$old" "$new"; do
        start=$(date +%s.%N)
        summary=$("$symex" check "$work/counters.c" --timeout 30 2>&1 |
          grep '^summary')
        end=$(date +%s.%N)
        verdict=$(sed -E 's/.*: ([0-9]+) violated, ([0-9]+) safe, [0-9]+ safe up to a bound, ([0-9]+) unknown.*/\1 violated \3 unknown/' <<<"$summary")
        row="$row | $verdict $(printf '%.2f' "$(echo "$end - $start" | bc)")"
      done
      echo "$row"
    done
  done
done
rm -rf "$work"
