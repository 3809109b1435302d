#!/usr/bin/env bash
# Heap-model benchmark (seed 003): traces, time and peak memory of li, lazier# and pose, side by
# side, on the data-structure benchmarks of corpus/heap_*.uc at their corpus bounds, on hasNull
# for max = 4, 10, 20, 50, 100, and on the drivers whose bound scales at bounds where lazy
# initialization takes 10 s or more (`SCALED` below; each run limited to `TIMEOUT` seconds).
# Prints a Markdown table (BENCHMARKS.md "Heap models"). Each run is its own process, so
# `peak_rss_kb` is that run's peak. Usage: scripts/bench-heap.sh [path/to/symex]
set -euo pipefail
symex=${1:-target/release/symex}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

timeout=${TIMEOUT:-120}

# Drivers whose depth bound is one literal (named in each file's `note:`), and the bound at which
# lazy initialization takes 10 s or more on the machine of BENCHMARKS.md.
SCALED=(
  "heap_avl_find|d < 4|d < 14"
  "heap_rbt_get|d < 4|d < 14"
  "heap_rbt_put|d < 3|d < 10"
  "heap_avl_find_max|d < 4|d < 300"
  "heap_dll_get|size <= 3|size <= 150"
  "heap_dll_remove|i < 3|i < 100"
  "heap_dll_index_of|i < 4|i < 250"
  "heap_avl_insert|insert(x, t->root, 1|insert(x, t->root, 2"
)

cases=()
for f in "$root"/corpus/heap_*.uc; do
  cases+=("$f|$(sed -n 's|^//! entry: ||p' "$f")|full")
done
for max in 4 10 20 50 100; do
  sed "s/i <= 10/i <= $max/" "$root/vendor/corpus/pose_traces_hasnull10.uc" > "$tmp/hasnull_$max.uc"
  cases+=("$tmp/hasnull_$max.uc|has_null|paper")
done
for scaled in "${SCALED[@]}"; do
  IFS='|' read -r name from to <<< "$scaled"
  bound=$(grep -o '[0-9]*$' <<< "$to")
  grep -q "$from" "$root/corpus/$name.uc" || { echo "no '$from' in $name.uc" >&2; exit 1; }
  sed "s/$from/$to/" "$root/corpus/$name.uc" > "$tmp/${name}_$bound.uc"
  cases+=("$tmp/${name}_$bound.uc|$(sed -n 's|^//! entry: ||p' "$root/corpus/$name.uc")|full")
done

echo "| program | rules | li traces | li ms | li KiB | lazier# traces | lazier# ms | lazier# KiB | pose traces | pose ms | pose KiB | verdicts (pose) |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
for case in "${cases[@]}"; do
  IFS='|' read -r file entry rules <<< "$case"
  row="| $(basename "$file" .uc) | $rules"
  declare -A verdicts=()
  for model in li lazier pose; do
    json=$("$symex" check "$file" --entry "$entry" --heap "$model" --trace-rules "$rules" \
      --format json --timeout "$timeout" || true)
    row+=" | $(jq -r '.stats.traces' <<< "$json") | $(jq -r '.stats.time_ms' <<< "$json") | $(jq -r '.stats.peak_rss_kb' <<< "$json")"
    found=$(jq -r '[.properties[] | select(.status != "safe") | "\(.status) \(.kind) \(.line)"] | unique | join(", ")' <<< "$json")
    verdicts[$model]=${found:-all safe}
  done
  # POSE's verdicts, and another model's where they differ (a limit may cut one model's run).
  column=${verdicts[pose]}
  for model in li lazier; do
    if [[ ${verdicts[$model]} != "${verdicts[pose]}" ]]; then
      column+="; $model: ${verdicts[$model]}"
    fi
  done
  echo "$row | $column |"
done
