#!/usr/bin/env bash
# The structural engine's scale benchmark (issue: seed 004): call trees in the shape of the
# thesis's Example 6 (`symex gen --call-tree N`), from 1 k to 50 k lines, checked by the
# structural engine (lazy refinement), the structural engine with eager inlining, the forward
# engine and the backward engine, side by side in one run, each with a time limit of
# $TIMEOUT s. Prints one Markdown row per program and configuration: lines, time, peak memory,
# term nodes, refinements, and how many properties were decided.
#
#   bench/structural_scale.sh [SIZES...]      (default: 1000 2000 5000 10000 20000 50000)
#   TIMEOUT=60 SEED=1 BUG=1 CONFIGS="structural eager" bench/structural_scale.sh 5000
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q
symex=target/release/symex
timeout_s=${TIMEOUT:-60}
seed=${SEED:-1}
bug=${BUG:+--call-bug}
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000 2000 5000 10000 20000 50000)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
configs=(
  "structural|--engine structural"
  "eager|--engine structural --refine eager"
  "forward|--engine forward"
  "backward|--engine backward"
)
echo "| lines | configuration | time (s) | peak memory (MB) | term nodes | refinements | decided / properties | violated |"
echo "|---:|---|---:|---:|---:|---:|---:|---:|"
for size in "${sizes[@]}"; do
  program="$work/tree_$size.uc"
  # shellcheck disable=SC2086
  $symex gen --call-tree "$size" --seed "$seed" $bug > "$program"
  lines=$(wc -l < "$program")
  for entry in "${configs[@]}"; do
    name=${entry%%|*}
    flags=${entry#*|}
    if [ -n "${CONFIGS:-}" ] && [[ " $CONFIGS " != *" $name "* ]]; then
      continue
    fi
    # shellcheck disable=SC2086
    /usr/bin/time -f "%e %M" -o "$work/time" \
      timeout $((timeout_s + 30)) $symex check $flags --timeout "$timeout_s" --format json "$program" \
      > "$work/report.json" 2> /dev/null || true
    read -r seconds kb < <(tail -1 "$work/time") || { seconds=-; kb=0; }
    python3 - "$work/report.json" "$lines" "$name" "$seconds" "$kb" <<'PY'
import json, sys
path, lines, name, seconds, kb = sys.argv[1:]
try:
    report = json.load(open(path))
except (ValueError, OSError):
    print(f"| {lines} | {name} | {seconds} | {int(kb) // 1024} | - | - | no report | - |")
    sys.exit()
props = report["properties"]
decided = sum(1 for p in props if p["status"] in ("safe", "violated", "safe-up-to"))
violated = sum(1 for p in props if p["status"] == "violated")
stats = report["stats"]
nodes = stats.get("term_nodes", "-")
refinements = stats.get("refinements", "-")
print(f"| {lines} | {name} | {seconds} | {int(kb) // 1024} | {nodes} | {refinements} | {decided} / {len(props)} | {violated} |")
PY
  done
done
