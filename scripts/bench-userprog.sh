#!/usr/bin/env bash
# Measures what memprof's tracking of a user's program (spec §8.1) costs, beside heaptrack
# (Debian's package), the native anchor for allocation tracking with stacks, in one run:
#
#  1. Allocation tracking: the same allocation-heavy program (memprof-example-c churn N: N malloc
#     and N free of 16-512 bytes) plain, under `heaptrack`, and as the work of a one-handler
#     workload under `memprof run --no-sampling` (release builds). Wall time and peak memory (the
#     largest resident set of any process of the run, from wait4), median of ROUNDS runs each,
#     alternated so drifts of the machine hit all three alike.
#  2. Sampling: a CPU-bound program (memprof-example-c spin N, no allocation) under memprof run
#     with sampling at 997 Hz and with --no-sampling, alternated: median CPU time (user + system)
#     of the program as memprof measured it (profile.runs), and the overhead in percent. CPU time,
#     not wall time: on a loaded machine the wall time of a CPU-bound program mostly measures
#     the other processes.
#
# Usage: scripts/bench-userprog.sh [--quick]      Environment: ROUNDS (default 5), N (churn count)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
rounds="${ROUNDS:-5}"
count="${N:-5000000}"
spin=3000000000
if [ "${1:-}" = "--quick" ]; then rounds=3; count=1000000; spin=600000000; fi
command -v heaptrack >/dev/null || { echo "bench-userprog: needs heaptrack (apt-get install heaptrack)" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "== machine"
echo "cpu: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores; kernel $(uname -r); load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "heaptrack: $(dpkg-query -W -f '${Version}' heaptrack 2>/dev/null || echo unknown)"

echo "== build (release)"
for product in memprof memprof-preload memprof-example-c; do
  swift build -c release --disable-default-traits --product "$product" >/dev/null
done
bin="$PWD/.build/release/memprof"
program="$PWD/.build/release/memprof-example-c"

workload() {  # workload NAME ARGS...: one fetch handler running the program once
  local name="$1"; shift
  local args=""
  for a in "$@"; do args+=", \"$a\""; done
  cat > "$work/$name.yaml" <<YAML
memprof: 1
name: $name
duration: 2m
device: {preset: iphone-6-plus, cpuScale: 1}
policy: {preset: seed-2015, fetchWindow: 10m}
apps:
  app:
    launch: {footprint: 10MB}
    modes: [fetch]
    fetch: {interval: 1m, time: 1s, work: {command: ["$program"$args]}}
script:
  - {at: 0s, open: app}
  - {at: 30s, home: true}
YAML
}

# measure CMD...: prints "wall_seconds max_rss_kib cpu_seconds" of the command and everything
# it started (CPU: user + system of all of them, the figure a loaded machine disturbs least).
measure() {
  python3 - "$@" <<'PY'
import os, sys, time
start = time.monotonic()
pid = os.fork()
if pid == 0:
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    os.execvp(sys.argv[1], sys.argv[1:])
_, status, _ = os.wait4(pid, 0)
wall = time.monotonic() - start
import resource
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
if status != 0:
    sys.exit(f"bench-userprog: {sys.argv[1:]} failed ({status})")
print(f"{wall:.3f} {usage.ru_maxrss} {usage.ru_utime + usage.ru_stime:.3f}")
PY
}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

echo "== allocation tracking: churn $count ($count malloc + $count free), median of $rounds"
workload churn churn "$count"
: > "$work/plain"; : > "$work/heaptrack"; : > "$work/memprof"
for _ in $(seq "$rounds"); do
  measure "$program" churn "$count" >> "$work/plain"
  measure heaptrack -o "$work/heaptrack-out" "$program" churn "$count" >> "$work/heaptrack"
  rm -f "$work"/heaptrack-out*
  measure "$bin" run "$work/churn.yaml" --no-sampling --out "$work/out-churn" >> "$work/memprof"
done
plain_wall=$(cut -d' ' -f1 "$work/plain" | median); plain_rss=$(cut -d' ' -f2 "$work/plain" | median)
plain_cpu=$(cut -d' ' -f3 "$work/plain" | median)
printf '%-12s %8s %8s %8s %8s %13s %8s\n' "" "wall s" "x plain" "CPU s" "x plain" "peak RSS MiB" "x plain"
for tool in plain heaptrack memprof; do
  wall=$(cut -d' ' -f1 "$work/$tool" | median); rss=$(cut -d' ' -f2 "$work/$tool" | median)
  cpu=$(cut -d' ' -f3 "$work/$tool" | median)
  printf '%-12s %8.3f %8.1f %8.3f %8.1f %13.1f %8.2f\n' "$tool" "$wall" "$(echo "$wall / $plain_wall" | bc -l)" \
    "$cpu" "$(echo "$cpu / $plain_cpu" | bc -l)" "$(echo "$rss / 1024" | bc -l)" "$(echo "$rss / $plain_rss" | bc -l)"
done
python3 - "$work/out-churn/report.json" <<'PY'
import json, sys
h = json.load(open(sys.argv[1]))["profile"]["handlers"][0]
a = h["allocations"]
print(f"memprof recorded {a['allocations']:,} allocations, {a['allocatedBytes']:,} bytes, "
      f"{h['program']['lostEvents']} events lost; program wall {h['wallMicroseconds']/1e6:.3f} s")
PY

echo "== sampling at 997 Hz: spin $spin (no allocation), median of $rounds pairs"
workload spin spin "$spin"
: > "$work/on"; : > "$work/off"
program_cpu() {
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["profile"]["runs"][0]["cpuMicroseconds"])' "$1/report.json"
}
for _ in $(seq "$rounds"); do
  "$bin" run "$work/spin.yaml" --no-sampling --out "$work/off-run" >/dev/null
  program_cpu "$work/off-run" >> "$work/off"
  "$bin" run "$work/spin.yaml" --out "$work/on-run" >/dev/null
  program_cpu "$work/on-run" >> "$work/on"
done
off=$(median < "$work/off"); on=$(median < "$work/on")
samples=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["profile"]["sampler"]["samples"])' "$work/on-run/report.json")
printf 'program CPU time: unsampled %.3f s, sampled %.3f s (%s samples): overhead %.2f%%\n' \
  "$(echo "$off / 1000000" | bc -l)" "$(echo "$on / 1000000" | bc -l)" "$samples" "$(echo "($on - $off) * 100 / $off" | bc -l)"
