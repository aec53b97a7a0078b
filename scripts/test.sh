#!/usr/bin/env bash
# Runs every test of memprof: installs what the tests need, builds, runs the Swift test suites,
# then the script checks (baselines, stack file formats, report.html in a real browser).
# Exit status 0 only when everything passed.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
./scripts/setup.sh
if ! python3 -c "import jsonschema" 2>/dev/null; then
  echo "test.sh: installing python3-jsonschema (speedscope schema check)" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-jsonschema >/dev/null
fi

echo "== build (debug, with tests)"
swift build --build-tests
export MEMPROF_BIN="$root/.build/debug/memprof"

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

echo "== report.html in headless Chromium"
MEMPROF="$MEMPROF_BIN" ./scripts/browser-check.sh "$work/screenshots"

echo "test.sh: all tests and checks passed"
