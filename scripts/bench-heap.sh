#!/usr/bin/env bash
# Heap-model benchmark (seed 003): traces, time and peak memory of li, lazier# and pose, side by
# side, on the data-structure benchmarks of corpus/heap_*.uc and on hasNull for max = 4, 10, 20,
# 50. Prints a Markdown table (BENCHMARKS.md "Heap models"). Each run is its own process, so
# `peak_rss_kb` is that run's peak. Usage: scripts/bench-heap.sh [path/to/symex]
set -euo pipefail
symex=${1:-target/release/symex}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cases=()
for f in "$root"/corpus/heap_*.uc; do
  cases+=("$f|$(sed -n 's|^//! entry: ||p' "$f")|full")
done
for max in 4 10 20 50; do
  sed "s/i <= 10/i <= $max/" "$root/vendor/corpus/pose_traces_hasnull10.uc" > "$tmp/hasnull_$max.uc"
  cases+=("$tmp/hasnull_$max.uc|has_null|paper")
done

echo "| program | rules | li traces | li ms | li KiB | lazier# traces | lazier# ms | lazier# KiB | pose traces | pose ms | pose KiB | verdicts (pose) |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
for case in "${cases[@]}"; do
  IFS='|' read -r file entry rules <<< "$case"
  row="| $(basename "$file" .uc) | $rules"
  verdicts=""
  for model in li lazier pose; do
    json=$("$symex" check "$file" --entry "$entry" --heap "$model" --trace-rules "$rules" \
      --format json --timeout 300 || true)
    row+=" | $(jq -r '.stats.traces' <<< "$json") | $(jq -r '.stats.time_ms' <<< "$json") | $(jq -r '.stats.peak_rss_kb' <<< "$json")"
    verdicts=$(jq -r '[.properties[] | select(.status != "safe") | "\(.status) \(.kind) \(.line)"] | unique | join(", ")' <<< "$json")
  done
  echo "$row | ${verdicts:-all safe} |"
done
