#!/usr/bin/env bash
# Runs every test of memprof: installs what the tests need, builds, runs the Swift test suites,
# then the script checks (baselines, stack file formats, report.html in a real browser).
# Exit status 0 only when everything passed.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
./scripts/setup.sh --tests

echo "== format (.swift-format, scripts/check-format.sh)"
./scripts/check-format.sh

echo "== build (debug, with tests)"
swift build --build-tests
export MEMPROF_BIN="$root/.build/debug/memprof"

echo "== documentation (DocC catalogs, scripts/check-docs.sh)"
./scripts/check-docs.sh

echo "== swift test"
swift test --skip-build

echo "== baselines (Reports/baselines)"
./scripts/check-baselines.sh

echo "== stack files of a sampled run (FlameGraph rules, speedscope schema, go tool pprof)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$MEMPROF_BIN" run phone-day --out "$work/phone-day" >/dev/null
./scripts/check-folded.sh "$work/phone-day/stacks.folded"
./scripts/check-speedscope.sh "$work/phone-day/profile.speedscope.json"
./scripts/check-pprof.sh "$work/phone-day"

echo "== report.html in headless Chromium (screenshots kept in .build/screenshots)"
MEMPROF="$MEMPROF_BIN" ./scripts/browser-check.sh "$root/.build/screenshots"

echo "test.sh: all tests and checks passed"
