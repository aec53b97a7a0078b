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

echo "== manifest (each target declares what it imports, scripts/check-manifest.sh)"
./scripts/check-manifest.sh

echo "== elsewhere than Linux (a uname that says Darwin): one sentence and the container command, as the README says"
fake="$(mktemp -d)"
printf '#!/bin/sh\necho Darwin\n' >"$fake/uname"
chmod +x "$fake/uname"
for script in memprof test.sh; do
    if said="$(PATH="$fake:$PATH" "./scripts/$script" run 2>&1)"; then echo "scripts/$script ran on Darwin"; exit 1; fi
    container="$(tail -1 <<<"$said" | sed 's/^ *//')"
    if [ "$(wc -l <<<"$said")" -ne 2 ] || [[ "$(head -1 <<<"$said")" != "memprof runs on Linux"* ]] || ! grep -qF "$container" README.md; then
        echo "scripts/$script on Darwin said (not in the README, or not one sentence and one command):"; echo "$said"; exit 1
    fi
done
rm -rf "$fake"

echo "== build (debug, with tests)"
swift build --build-tests
export MEMPROF_BIN="$root/.build/debug/memprof"

echo "== documentation (DocC catalogs, scripts/check-docs.sh)"
./scripts/check-docs.sh

# The suites that sample this very process (SIGPROF at up to 5 kHz) run on their own, so the
# signals cannot interrupt the sockets and pipes of the other suites' servers and processes.
in_process_sampling='MemprofSamplerTests|MemprofRunTests'
echo "== swift test (everything but the in-process sampling suites)"
swift test --skip-build --skip "$in_process_sampling"
echo "== swift test (in-process sampling suites)"
swift test --skip-build --filter "$in_process_sampling"

echo "== fuzz the JetsamEvent .ips reader (libFuzzer, scripts/fuzz-ips.sh)"
./scripts/fuzz-ips.sh 50000 > "$root/.build/fuzz-ips.log" 2>&1 || { tail -30 "$root/.build/fuzz-ips.log"; exit 1; }

echo "== baselines (Reports/baselines)"
./scripts/check-baselines.sh

echo "== memory does not grow with the run (scripts/check-memory.sh: peak RSS of a 7-day run over a 1-day run)"
./scripts/check-memory.sh "$MEMPROF_BIN"

echo "== fuzzing, time-boxed (scripts/fuzz.sh --loop: every parser of untrusted input, 30 s each)"
./scripts/fuzz.sh --loop --seconds 30

echo "== stack files of a sampled run (FlameGraph rules, speedscope schema, go tool pprof)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$MEMPROF_BIN" run phone-day --out "$work/phone-day" >/dev/null
./scripts/check-folded.sh "$work/phone-day/stacks.folded"
./scripts/check-speedscope.sh "$work/phone-day/profile.speedscope.json"
./scripts/check-pprof.sh "$work/phone-day"

echo "== a user's program as work (README example; go tool pprof -sample_index=inuse_space)"
./scripts/check-user-program.sh

echo "== report.html in headless Chromium (screenshots kept in .build/screenshots)"
MEMPROF="$MEMPROF_BIN" ./scripts/browser-check.sh "$root/.build/screenshots"

echo "== fleet sweep sharded over a local Dask cluster (scheduler and 3 workers on 127.0.0.1) equals the single-machine sweep"
./scripts/check-fleet-dask.sh "$MEMPROF_BIN"

echo "== the Linux release and the README's CI recipe for an app's repository (scripts/check-release.sh: from the tarball, outside the checkout, and in a glibc-only root)"
./scripts/check-release.sh

echo "test.sh: all tests and checks passed"
