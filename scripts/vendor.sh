#!/usr/bin/env bash
# Refreshes the ground truth the tests use (and the shared docs the project's docs link to) from
# `../shared` into `vendor/`, so that the test suite runs and the links resolve on a clone
# without `../shared` beside it. `crates/corpus/tests/vendored.rs` fails
# when a vendored file differs from `../shared` (where that folder exists): run this then.
set -euo pipefail
cd "$(dirname "$0")/.."
shared=../shared
[ -d "$shared" ] || { echo "no $shared beside the repository: nothing to refresh" >&2; exit 1; }
rm -rf vendor/corpus vendor/sv-comp vendor/docs
mkdir -p vendor
cp -r "$shared/corpus" vendor/corpus
cp -r "$shared/benchmarks/sv-comp" vendor/sv-comp
cp -r "$shared/docs" vendor/docs
echo "vendored $(find vendor/corpus -type f | wc -l) corpus files, $(find vendor/sv-comp -type f | wc -l) SV-COMP files and $(find vendor/docs -type f | wc -l) docs"
