#!/bin/bash
# Restarts over assertion orders under growing `max_conflicts` budgets (BENCHMARKS.md, "Why
# in-process Z3 was slower"): attempts engine, reversed, then assert-perm 1, 2, ...; budgets
# BASE, BASE, 2 BASE, 2 BASE, 4 BASE, ...; gives up after 90 s in all.
# Usage: restarts.sh QUERY.smt2 [BASE=10000]   (ORDER: the built order.c, default ./order beside this script)
query=$1; base=${2:-10000}; total=0
for k in $(seq 0 11); do
  case $k in 0) mode=engine; seed=1 ;; 1) mode=reversed; seed=1 ;; *) mode=assert-perm; seed=$((k - 1)) ;; esac
  budget=$(( base << (k / 2) ))
  out=$(MAX_CONFLICTS=$budget "${ORDER:-$(dirname "$0")/order}" "$query" $mode $seed | tail -1)
  total=$(echo "$total $(echo "$out" | awk '{print $3}')" | awk '{printf "%.2f", $1 + $2}')
  if [ "$(echo "$out" | awk '{print $2}')" != 0 ]; then
    echo "$query: answered $(echo "$out" | awk '{print $2}') by attempt $k ($mode $seed, $budget conflicts), $total s in all"; exit 0
  fi
  if awk "BEGIN { exit !($total > 90) }"; then echo "$query: gave up after $total s"; exit 0; fi
done
echo "$query: no attempt answered, $total s in all"
