#!/usr/bin/env bash
# Re-records Reports/baselines/<name>/report.json for every built-in workload, on purpose: run it
# when a change in memprof's behaviour is intended, and commit the new baselines with that change.
# Only report.json is kept (HTML, traces and profiles are not deterministic or not needed).
# Usage: scripts/update-baselines.sh [NAME...]     (default: every built-in workload)
# Uses $MEMPROF_BIN when set, otherwise builds .build/debug/memprof.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bin="${MEMPROF_BIN:-}"
if [ -z "$bin" ]; then
  swift build --product memprof >&2
  bin="$root/.build/debug/memprof"
fi
if [ $# -gt 0 ]; then
  names=("$@")
else
  mapfile -t names < <("$bin" list workloads | awk '{print $1}')
fi
[ ${#names[@]} -gt 0 ] || { echo "update-baselines: no built-in workloads" >&2; exit 1; }
for name in "${names[@]}"; do
  out="Reports/baselines/$name"
  mkdir -p "$out"
  "$bin" run "$name" --out "$out" --no-sampling >/dev/null
  # Keep the report only.
  find "$out" -mindepth 1 -maxdepth 1 ! -name 'report.json' -exec rm -rf {} +
  echo "recorded $out/report.json"
done
