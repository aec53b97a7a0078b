#!/usr/bin/env bash
# Measures the stack sampler's overhead (spec §8) and sets it beside two peers on the same kernel.
#
#  1. memprof's sampler: one kernel run alternately sampled and not sampled in one process, at
#     100 Hz, 1 kHz and 4 kHz: median overhead on the work's wall time and cost per sample
#     (extra wall time / samples), next to the sampler's own estimate.
#  2. perf record -F 1000 -g (Debian's linux-perf), when the kernel allows it, and
#  3. gperftools' CPU profiler (Debian's google-perftools, LD_PRELOAD + CPUPROFILE) at 1000 Hz,
#     each on the same kernel in a plain run of the same binary, against plain runs alternated
#     with them (medians).
#  4. What loading libunwind costs C++ exceptions: a throw/catch loop built plain, linked with
#     -lunwind, and with libunwind.so.8 dlopen'ed privately (what memprof does).
#
# Usage: scripts/bench-sampler.sh [--quick]
# Environment: KERNEL (default checksum), ROUNDS (pairs per rate, default 9), SCRATCH (build
# folder, default .build).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
kernel="${KERNEL:-checksum}"
rounds="${ROUNDS:-9}"
peer_rounds=5
seconds=0.4
if [ "${1:-}" = "--quick" ]; then rounds=3; peer_rounds=3; seconds=0.2; fi
scratch="${SCRATCH:-.build}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "== machine"
echo "cpu: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores; kernel $(uname -r); load $(cut -d' ' -f1-3 /proc/loadavg)"

swift build -c release --product memprof-bench-sampler --scratch-path "$scratch" >"$work/build.log" 2>&1 \
  || { cat "$work/build.log" >&2; exit 1; }
bin="$scratch/release/memprof-bench-sampler"

echo
echo "== memprof sampler (signal + unw_backtrace into a preallocated buffer), kernel $kernel"
"$bin" overhead --kernel "$kernel" --rates 100,1000,4000 --rounds "$rounds" --seconds "$seconds" >"$work/overhead.txt"
grep '^#' "$work/overhead.txt"
grep -v '^#' "$work/overhead.txt" | column -t

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
wall_of() { sed -n 's/^wall_us //p' "$1"; }
cpu_of() { sed -n 's/^cpu_us //p' "$1"; }

# A size that takes about 2 s in a plain run.
"$bin" plain --kernel "$kernel" --size $((64 << 20)) >"$work/calibrate.txt"
size=$(awk -v us="$(wall_of "$work/calibrate.txt")" 'BEGIN { printf "%d", (64 * 1048576) * 2000000 / us }')

# peer NAME COMMAND...: alternates plain runs with runs under COMMAND; prints the median
# overhead on the working thread's CPU time and on wall time.
peer() {
  local name="$1"; shift
  : >"$work/cpu"; : >"$work/wall"
  for ((i = 0; i < peer_rounds; i++)); do
    "$bin" plain --kernel "$kernel" --size "$size" >"$work/plain.txt"
    "$@" "$bin" plain --kernel "$kernel" --size "$size" >"$work/peer.txt" 2>"$work/peer.err" || return 1
    awk -v a="$(cpu_of "$work/plain.txt")" -v b="$(cpu_of "$work/peer.txt")" \
      'BEGIN { printf "%.3f\n", (b - a) * 100 / a }' >>"$work/cpu"
    awk -v a="$(wall_of "$work/plain.txt")" -v b="$(wall_of "$work/peer.txt")" \
      'BEGIN { printf "%.3f\n", (b - a) * 100 / a }' >>"$work/wall"
  done
  printf '%-38s cpu overhead %7s %%  wall overhead %7s %%  (cpu runs: %s)\n' "$name" \
    "$(median <"$work/cpu")" "$(median <"$work/wall")" "$(tr '\n' ' ' <"$work/cpu")"
}

echo
echo "== peers on the same kernel ($size bytes, ~2 s plain), $peer_rounds alternated pairs each"
if command -v perf >/dev/null 2>&1 && perf record -F 1000 -g -o "$work/probe.data" -- true >/dev/null 2>&1; then
  peer "perf record -F 1000 -g" perf record -q -F 1000 -g -o "$work/perf.data" -- \
    || echo "perf record: failed ($(head -1 "$work/peer.err"))"
  echo "    perf.data of the last run: $(perf script -F period -i "$work/perf.data" 2>/dev/null | wc -l) samples in ~2 s"
else
  echo "perf record -F 1000 -g: not available here (perf missing or perf_event_paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null))"
fi

profiler=$(ls /usr/lib/*/libprofiler.so.0 2>/dev/null | head -1 || true)
if [ -z "$profiler" ] && [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
  echo "(installing google-perftools for the comparison)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq google-perftools >/dev/null 2>&1 || true
  profiler=$(ls /usr/lib/*/libprofiler.so.0 2>/dev/null | head -1 || true)
fi
if [ -n "$profiler" ]; then
  peer "gperftools CPUPROFILE_FREQUENCY=1000" env LD_PRELOAD="$profiler" CPUPROFILE="$work/gperf.prof" \
    CPUPROFILE_FREQUENCY=1000 || echo "gperftools: failed"
  if command -v google-pprof >/dev/null; then
    total=$(google-pprof --text "$bin" "$work/gperf.prof" 2>/dev/null | sed -n 's/^Total: \([0-9]*\) samples.*/\1/p')
    echo "    gperftools profile of the last run: ${total:-?} samples in ~2 s (it uses ITIMER_PROF, capped at the kernel tick)"
  fi
else
  echo "gperftools: libprofiler.so.0 not found (apt-get install google-perftools)"
fi

echo
echo "== libunwind and C++ exceptions (ns per throw+catch, median of 5 runs of 200k)"
cat >"$work/throw.cpp" <<'CPP'
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <stdexcept>
#ifdef LINKED
#define UNW_LOCAL_ONLY
#include <libunwind.h>
#endif
__attribute__((noinline)) void thrower(int i) { if (i >= 0) throw std::runtime_error("x"); }
int main() {
#ifdef LINKED
  void *frames[32]; unw_backtrace(frames, 32);
#endif
#ifdef PRIVATE
  void *lib = dlopen("libunwind.so.8", RTLD_NOW | RTLD_LOCAL);
  auto bt = (int (*)(void **, int))dlsym(lib, "unw_backtrace");
  void *frames[32]; bt(frames, 32);
#endif
  const int n = 200000; long caught = 0;
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < n; i++) { try { thrower(i); } catch (const std::exception &) { caught++; } }
  auto ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
  std::printf("%.0f\n", ns / n);
  return caught == n ? 0 : 1;
}
CPP
if command -v g++ >/dev/null; then
  g++ -O2 "$work/throw.cpp" -o "$work/throw-plain"
  g++ -O2 -DLINKED "$work/throw.cpp" -o "$work/throw-linked" -lunwind
  g++ -O2 -DPRIVATE "$work/throw.cpp" -o "$work/throw-private" -ldl
  for variant in plain linked private; do
    value=$(for _ in 1 2 3 4 5; do "$work/throw-$variant"; done | median)
    case $variant in
      plain) label="libgcc_s unwinder (no libunwind)";;
      linked) label="linked with -lunwind (process-wide)";;
      private) label="libunwind.so.8 dlopen'ed RTLD_LOCAL";;
    esac
    printf '%-40s %6s ns\n' "$label" "$value"
  done
else
  echo "g++ not found: skipped"
fi
