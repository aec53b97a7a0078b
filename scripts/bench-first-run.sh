#!/usr/bin/env bash
# The first `./scripts/memprof run` on a fresh clone (target ≤ 90 s on 2 cores):
# clones the committed HEAD into a scratch folder, times the README's first command there (set-up,
# release build of memprof and the preload library, the run of the default workload), and prints
# wall and CPU time with the machine and its load. Then it times a first `compare`, which builds
# nothing more (every command but serve is in memprof). Packages come from the machine's SwiftPM cache, as on a developer's
# machine that has built Swift packages before. Run it on an idle machine: it measures the build.
#   scripts/bench-first-run.sh [COMMIT]    (default HEAD)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
commit="${1:-HEAD}"
work="$(mktemp -d /tmp/memprof-first-run-XXXXXX)"
trap 'rm -rf "$work"' EXIT
git clone -q "$root" "$work/memprof"
git -C "$work/memprof" checkout -q "$(git -C "$root" rev-parse "$commit")"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(swift --version 2>/dev/null | head -1)"
echo "commit:  $(git -C "$work/memprof" log -1 --format='%h %ad' --date=iso)"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
cd "$work/memprof"
/usr/bin/time -f "first ./scripts/memprof run: %e s wall, %U s user + %S s system CPU" \
  ./scripts/memprof run > "$work/run.out" 2> "$work/run.err" || { cat "$work/run.err" >&2; exit 1; }
tail -1 "$work/run.err"
/usr/bin/time -f "then the first ./scripts/memprof compare: %e s wall, %U s user + %S s system CPU" \
  ./scripts/memprof compare Reports/phone-day Reports/phone-day > "$work/compare.out" 2> "$work/compare.err" \
  || { cat "$work/compare.err" >&2; exit 1; }
tail -1 "$work/compare.err"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
