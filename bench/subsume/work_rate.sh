#!/bin/bash
# How much work Z3 counts per second of the forward engine's solver time (BENCHMARKS.md,
# "Subsumption's share in solver work"): the generated sets with errors of
# bench/subsume-violations-seeds.json (seeds 0..14, 3- and 5-deep), klee at seed 1 with and
# without --subsume, 3 s each. Prints one row per run, `depth seed flags solver_ms
# solver_calls work work_per_s`, then the quartiles of the rate over the runs with at least
# 500 solver calls (`solver time` is the query layer's, model reuse included: on a run whose
# questions model reuse answers it is not Z3's).
# Run from the repository's root:  bench/subsume/work_rate.sh [SYMEX]
set -u
symex=${1:-target/release/symex}
work=$(mktemp -d)
for depth in 3 5; do
  for seed in $(seq 0 14); do
    "$symex" gen --seed "$seed" --functions 0 --statements 4 --block-statements 3 --no-null \
      --no-symbolic-indices --no-asserts --for-prob 50 --loop-prob 10 --if-prob 10 \
      --block-depth "$depth" --loop-depth "$depth" --input-bound-prob 100 --errors 1 \
      --divisions > "$work/gen.uc"
    for flags in "" "--subsume"; do
      stats=$("$symex" check "$work/gen.uc" --search klee --seed 1 $flags --timeout 3 --stats 2>&1)
      ms=$(grep -E "^ *solver time" <<<"$stats" | awk '{print $(NF-1)}')
      calls=$(grep -E "^ *solver calls" <<<"$stats" | awk '{print $NF}')
      units=$(grep -E "^ *solver work" <<<"$stats" | awk '{print $NF}')
      echo "$depth $seed ${flags:--} $ms $calls $units $(( ms > 0 ? units * 1000 / ms : 0 ))"
    done
  done
done | tee "$work/rows"
awk '$5 >= 500 {print $7}' "$work/rows" | sort -n | awk '{r[NR] = $1}
  END {printf "runs %d, work per second of solver time: min %d, q1 %d, median %d, q3 %d, max %d\n",
       NR, r[1], r[int(NR / 4)], r[int(NR / 2)], r[int(3 * NR / 4)], r[NR]}'
rm -rf "$work"
