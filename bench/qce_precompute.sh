#!/usr/bin/env bash
# The cost of the query count estimates (seed 002 §6.3.1, Tables 6.2 and 6.3): the thesis
# precomputes every variable's cost before the search (`precomputeVariableCosts`, 30 s limit)
# and counts, per program set of Table 6.1 and per estimate, the runs whose precomputation
# timed out and the total precomputation time. symex computes the same estimates before its
# search under `--merge qce`; its limit is a count (a function over `qce::NODE_LIMIT` gets no
# estimate), so "gave up" counts the programs with such a function. Prints one Markdown row
# per set and estimate, from `qce_us` and `qce_unestimated` of each check's JSON stats.
#
#   bench/qce_precompute.sh [PROGRAMS]        (default: 50 per set, as in the thesis)
#   KAPPA=10 bench/qce_precompute.sh 20
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q
symex=target/release/symex
programs=${1:-50}
kappa=${KAPPA:-10}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Table 6.1: maxBlockDepth, maxTopLvlStmtsCount, maxStmtsWithinABlock; loops 0.15, for
# loops 0.10, no guaranteed error, no divisions.
sets=(
  "small|--block-depth 3 --loop-depth 3 --statements 10 --block-statements 5"
  "medium|--block-depth 4 --loop-depth 4 --statements 10 --block-statements 10"
  "large|--block-depth 5 --loop-depth 5 --statements 20 --block-statements 10"
)
common="--functions 0 --loop-prob 15 --for-prob 10 --if-prob 18 --input-bound-prob 100 --errors 0 --no-divisions --no-null --no-symbolic-indices --no-asserts"
field() { grep -o "\"$1\": *[0-9]*" "$2" | head -1 | grep -o "[0-9]*$"; }
ms() { printf '%d.%03d' $(($1 / 1000)) $(($1 % 1000)); }
echo "| program set | estimate | programs | gave up (a function unestimated) | total ms | slowest ms |"
echo "|---|---|---:|---:|---:|---:|"
for set in "${sets[@]}"; do
  name=${set%%|*}
  flags=${set#*|}
  for ((seed = 0; seed < programs; seed++)); do
    # shellcheck disable=SC2086
    "$symex" gen --seed "$seed" $common $flags > "$work/$name-$seed.uc"
  done
  for estimate in recursive lattice; do
    total=0 slowest=0 gave_up=0
    for ((seed = 0; seed < programs; seed++)); do
      out="$work/out.json"
      # The search itself is cut at once: only the estimates before it are measured.
      "$symex" check "$work/$name-$seed.uc" --merge qce --qce-estimate "$estimate" \
        --qce-kappa "$kappa" --qce-limit-cost 2 --timeout 0.001 --format json > "$out" || true
      us=$(field qce_us "$out")
      unestimated=$(field qce_unestimated "$out")
      total=$((total + ${us:-0}))
      ((${us:-0} > slowest)) && slowest=${us:-0}
      ((${unestimated:-0} > 0)) && gave_up=$((gave_up + 1))
    done
    echo "| $name | $estimate | $programs | $gave_up | $(ms "$total") | $(ms "$slowest") |"
  done
done
