#!/bin/bash
# Long paths under depth-first search, two binaries side by side (BENCHMARKS.md, "Long paths
# under depth-first search"): each row runs BEFORE, then AFTER. Run from the repository's root:
#   bench/long_paths/compare.sh BEFORE AFTER
set -u
before=$1 after=$2
work=$(mktemp -d)
sed 's/100000/10000/g' bench/long_paths/no_rise.c > "$work/nr10k.c"
cp bench/long_paths/no_rise.c "$work/nr100k.c"
sed 's/100000/10000/g' bench/long_paths/unsat_checks.c > "$work/uc10k.c"
sed 's/d < 4/d < 11/' corpus/heap_avl_find.uc > "$work/avl11.uc"
sed 's/100000/30000/g' bench/long_paths/input_bound.c > "$work/ib30k.c"
row() { # label, command...
  local label=$1; shift
  for b in "$before" "$after"; do
    /usr/bin/time -f "%e s %M KB" "$b" "$@" 2>&1 | tail -1 | tr '\n' ' '; echo " $label $b"
  done
}
for f in bench/long_paths/rounds.uc "$work/nr10k.c" "$work/nr100k.c" "$work/uc10k.c" "$work/ib30k.c"; do
  row "$(basename "$f")" check "$f" --search dfs --timeout 60 --stop-on-first --quiet
done
for b in "$before" "$after"; do
  "$b" check bench/long_paths/shift.uc --search dfs --timeout 10 --stats 2>&1 \
    | grep -E "^(states  |solver calls)" | tr -s ' ' | tr '\n' ' '; echo " shift.uc $b"
  "$b" check bench/long_paths/many_paths.c --search random-path --timeout 20 --stats 2>&1 \
    | grep -E "^paths explored" | tr -s ' ' | tr '\n' ' '; echo " many_paths.c $b"
done
row "shift.uc --match-states" check bench/long_paths/shift.uc --search dfs --match-states --timeout 60 --quiet
for h in li pose; do
  row "avl11 $h" check "$work/avl11.uc" --entry avl_find --heap "$h" --timeout 60 --quiet
done
rm -rf "$work"
