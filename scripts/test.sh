#!/usr/bin/env bash
# Runs every test of memprof: sets up what they need, builds, runs the Swift test suites and the
# script checks. Exit status 0 only when everything passed.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
./scripts/setup.sh
echo "== build (debug, with tests)"
swift build --build-tests
export MEMPROF_BIN="$root/.build/debug/memprof"
echo "== swift test"
swift test --skip-build
for check in scripts/check-*.sh scripts/browser-check.sh; do
  [ -x "$check" ] || continue
  echo "== $check"
  "$check"
done
echo "all tests passed"
