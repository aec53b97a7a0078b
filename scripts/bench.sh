#!/usr/bin/env bash
# Benchmarks memprof in release mode and prints every figure with the machine:
#   1. the simulator and the report.json writer in one process (memprof-bench: 100 apps, 24 h);
#   2. `memprof run --no-sampling` end to end on generated workloads (scripts/gen-workload.py):
#      50 apps over 450 hours with 100,000 scripted switches, and the same pace over 1 and 7 days:
#      reading the workload (`validate`), the simulation (occurrences per second, from the
#      report's `host`: the simulating thread's wall time, less what it waited for the writers'
#      threads), each file's writer (MB/s, from --timings: wall time, and for the files
#      streamed while the run goes the writing thread's CPU time), wall time, CPU time and peak RSS;
#   3. the peak RSS of the 7-day run over the 1-day run (the limit is 1.2);
#   4. each run's report.html rendered in headless Chromium (scripts/html_render.py: wall time to
#      the first frame after the load event, and the page's main-thread CPU time; at most 0.3 s).
# BENCH_REPEAT=N runs each measurement N times and keeps the best of each figure (default 1): the
# fastest end to end run's wall time, RSS and CPU, and for the simulation and each writer the best
# wall and the best CPU figure among the runs (one noisy run does not stand for the others).
# BENCH_SKIP_LARGE=1 leaves out the 450-hour workload.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
./scripts/setup.sh >/dev/null
swift build -c release --disable-default-traits --product memprof >&2
swift build -c release --disable-default-traits --product memprof-bench >&2
bin="$root/.build/release/memprof"
repeat="${BENCH_REPEAT:-1}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "machine             $(lscpu | sed -n 's/^Model name: *//p') ($(nproc) cores, $(free -g | awk '/^Mem:/ {print $2}') GB), $(swift --version 2>&1 | head -1)"
echo "load average        $(cut -d' ' -f1-3 /proc/loadavg) (figures are only comparable on a quiet machine)"
echo
echo "== simulator and report.json writer in one process (memprof-bench)"
./.build/release/memprof-bench

python3 scripts/gen-workload.py --apps 50 --hours 450 --switches 100000 --name big > "$work/big.yaml"
python3 scripts/gen-workload.py --apps 50 --days 7 --switches 37333 --name week > "$work/week.yaml"
python3 scripts/gen-workload.py --apps 50 --days 1 --switches 5333 --name day > "$work/day.yaml"

# best_of CMD...: runs CMD `repeat` times under /usr/bin/time, keeps the fastest; prints
# "seconds kB user-seconds system-seconds".
best_of() {
    local best="" line
    for _ in $(seq "$repeat"); do
        /usr/bin/time -f '%e %M %U %S' "$@" >/dev/null 2>"$work/err"
        line="$(tail -1 "$work/err")"
        if [ -z "$best" ] || awk -v a="${line%% *}" -v b="${best%% *}" 'BEGIN { exit !(a < b) }'; then best="$line"; fi
    done
    echo "$best"
}

bench_workload() {
    local name="$1" file="$work/$1.yaml"
    local bytes; bytes="$(stat -c %s "$file")"
    echo
    echo "== $name: $(sed -n 's/^duration: //p' "$file"), 50 apps, $(grep -c '^  - ' "$file") script entries, $(awk -v b="$bytes" 'BEGIN { printf "%.2f MB", b / 1048576 }') of YAML"
    # Wall time includes starting the process; CPU time (user + system) is what a loaded machine
    # does not inflate.
    read -r secs _ user sys <<<"$(best_of "$bin" validate "$file")"
    awk -v s="$secs" -v c="$(awk -v u="$user" -v y="$sys" 'BEGIN { print u + y }')" -v b="$bytes" \
        'BEGIN { printf "reading (validate)  %.2f s, %.1f MB/s (CPU %.2f s, %.1f MB/s)\n", s, b / 1048576 / s, c, b / 1048576 / (c > 0 ? c : 0.01) }'
    local secs kb best="" user sys
    # Every run's --timings lines and its report's simulation time, for the best of each.
    : >"$work/all-$name.err"
    for _ in $(seq "$repeat"); do
        /usr/bin/time -f '%e %M %U %S' "$bin" run "$file" --no-sampling --timings --out "$work/out-$name" \
            >/dev/null 2>"$work/try.err"
        grep '^timing' "$work/try.err" >>"$work/all-$name.err"
        python3 -c 'import json, sys; h = json.load(open(sys.argv[1]))["host"]; print("timing-host", h["processedOccurrences"], h["simulationWallMs"])' \
            "$work/out-$name/report.json" >>"$work/all-$name.err"
        read -r secs kb _ _ <<<"$(tail -1 "$work/try.err")"
        if [ -z "$best" ] || awk -v a="$secs" -v b="$best" 'BEGIN { exit !(a < b) }'; then
            best="$secs"; cp "$work/try.err" "$work/run-$name.err"
        fi
    done
    read -r secs kb user sys <<<"$(tail -1 "$work/run-$name.err")"
    python3 - "$work/all-$name.err" <<'PY'
import sys
lines = [line.split() for line in open(sys.argv[1])]
n = int(next(l[1] for l in lines if l[0] == "timing-host"))
ms = min(float(l[2]) for l in lines if l[0] == "timing-host")
print(f"simulation          {n} occurrences in {ms / 1000:.2f} s, {n / ms / 1000:.2f} M occurrences/s")
# The simulating thread's CPU time (--timings), which other work on the machine does not inflate.
cpu = min(float(l[2]) for l in lines if l[:2] == ["timing-cpu", "simulation"])
print(f"simulation (CPU)    {cpu / 1000:.2f} s of the simulating thread's CPU time, {n / cpu / 1000:.2f} M occurrences/s")
# Each file's writer: its best wall time (in the order the run names them).
names = list(dict.fromkeys(l[1] for l in lines if l[0] == "timing"))
for name in names:
    runs = [l for l in lines if l[0] == "timing" and l[1] == name]
    wall = min(float(l[2]) for l in runs)
    size = int(runs[0][4]) / 1048576
    print(f"{name:<19} {size:.1f} MB in {wall / 1000:.2f} s, {size / (wall / 1000):.0f} MB/s")
PY
    # report.json and trace.json are written while the run goes: their writers' CPU time on the
    # run's thread (in batches), which other work on the machine does not inflate.
    awk '$1 == "timing" { bytes[$2] = $5 } $1 == "timing-cpu" && $2 != "simulation" && (!($2 in cpu) || $3 < cpu[$2]) { cpu[$2] = $3 }
         END { for (f in cpu) printf "%-19s %.0f MB/s of the writing thread'"'"'s CPU time (%.2f s)\n", f " (CPU)", (bytes[f] / 1048576) / (cpu[f] / 1000), cpu[f] / 1000 }' \
        "$work/all-$name.err" | sort
    # The run makes report.json's and trace.json's text on a second thread while it simulates, and
    # writes its three files side by side: CPU time (user + system) can exceed the wall time.
    awk -v s="$secs" -v k="$kb" -v u="$user" -v y="$sys" \
        'BEGIN { printf "end to end          %.2f s, peak RSS %.0f MB (CPU %.2f s: user %.2f, system %.2f)\n", s, k / 1024, u + y, u, y }'
    echo "$kb" > "$work/rss-$name"
}

bench_workload day
bench_workload week
[ "${BENCH_SKIP_LARGE:-0}" = 1 ] || bench_workload big
echo
awk -v d="$(cat "$work/rss-day")" -v w="$(cat "$work/rss-week")" \
    'BEGIN { printf "peak RSS 7 d / 1 d  %.2f (%.0f MB / %.0f MB; the aim is at most 1.20)\n", w / d, w / 1024, d / 1024 }'
echo
echo "== report.html rendered in headless Chromium (1400 x 1000 px, median of 3 loads; the aim is at most 300 ms)"
if command -v chromium >/dev/null 2>&1; then
    pages=("$work/out-day/report.html" "$work/out-week/report.html")
    [ "${BENCH_SKIP_LARGE:-0}" = 1 ] || pages+=("$work/out-big/report.html")
    python3 scripts/html_render.py "${pages[@]}"
else
    echo "(no chromium: scripts/setup.sh --tests installs it)"
fi
