#!/usr/bin/env bash
# The whole test suite, from a fresh machine: installs what the tests need (the SMT solver
# binaries that the process back end and the differential tests drive; Chromium and the
# Playwright driver for the HTML report's browser tests), then checks formatting, lints, and
# runs every test of the workspace. `.ci/run` calls exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v z3 >/dev/null 2>&1 || missing+=(z3)
command -v cvc5 >/dev/null 2>&1 || missing+=(cvc5)
[ -x /usr/bin/chromium ] || missing+=(chromium)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]} (needed by the solver and browser tests)"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi

browser=crates/cli/tests/browser
if [ ! -d "$browser/node_modules/playwright-core" ]; then
  echo "installing playwright-core (drives Chromium in the HTML report tests)"
  npm ci --prefix "$browser" --no-audit --no-fund --silent
fi
export SYMEX_BROWSER_TESTS=require

cargo fmt --all -- --check
cargo clippy --workspace --all-targets --release -- -D warnings
cargo test --workspace --release
