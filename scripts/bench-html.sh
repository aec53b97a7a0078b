#!/usr/bin/env bash
# Benchmark of the reports people look at: time to write report.html and trace.json, their
# sizes, and Chromium's load time, for a generated 100-app, 24-hour workload (the largest run
# memprof is meant for) and the largest built-in one. Release build.
#
# usage: scripts/bench-html.sh [APPS] [HOURS]     (env: SCRATCH=.build)
set -euo pipefail
cd "$(dirname "$0")/.."
apps=${1:-100}
hours=${2:-24}
scratch=${SCRATCH:-.build}
work=$(mktemp -d /tmp/memprof-bench-html-XXXXXX)
trap 'rm -rf "$work"' EXIT

echo "release build ($scratch)"
swift build -c release --scratch-path "$scratch" --product memprof >/dev/null
memprof="$(pwd)/$scratch/release/memprof"

python3 - "$apps" "$hours" > "$work/big.yaml" <<'PY'
import random, sys
apps, hours = int(sys.argv[1]), int(sys.argv[2])
r = random.Random(42)
print("memprof: 1\nname: big\nseed: 1\nduration: %dh\ndevice: iphone-6-plus\napps:" % hours)
for i in range(apps):
    fp = r.randint(8, 220)
    print(f"  app{i}:\n    name: App {i}")
    print(f"    launch: {{footprint: {fp}MB, time: {r.randint(300, 3000)}ms}}")
    print(f"    growth: {r.randint(0, 4)}MB/min\n    maxFootprint: {fp + 80}MB")
    print(f"    onBackground: {{release: {fp // 3}MB}}\n    onMemoryWarning: {{release: {max(1, fp // 10)}MB}}")
    if i % 3 == 0:
        print("    modes: [fetch, remote-notification]")
        print("    fetch: {interval: 15m, time: 4s, allocates: 4MB}\n    push: {time: 2s, allocates: 2MB}")
    if i % 4 == 0:
        print(f"    backgroundTask: {{time: {r.randint(1, 15)}m, allocates: 10MB{', endsOnExpiration: true' if i % 8 == 0 else ''}}}")
print("script:")
t = 0
pushers = [i for i in range(apps) if i % 3 == 0]
while True:
    t += r.randint(30, 150)
    if t > hours * 3600: break
    print(f"  - {{at: {t}s, push: app{r.choice(pushers)}}}")
print("generate:\n  switchEvery: 30s\n  homeEvery: 10m\n  weights: {" +
      ", ".join(f"app{i}: {r.randint(1, 10)}" for i in range(apps)) + "}")
PY

run() {
    local name=$1 workload=$2
    local start end
    start=$(date +%s%N)
    MEMPROF_TIMINGS=1 "$memprof" run "$workload" --out "$work/$name" >/dev/null 2>"$work/$name.timings"
    end=$(date +%s%N)
    echo "== $name"
    echo "   whole run (simulate + write all):  $(( (end - start) / 1000000 )) ms"
    grep '^timing' "$work/$name.timings" | awk '{printf "   write %-12s %8s ms  %8.2f MB\n", $2, $3, $5/1048576}'
    printf "   report.json               %8.2f MB\n" "$(echo "$(stat -c %s "$work/$name/report.json") / 1048576" | bc -l)"
}
run ipad-afternoon ipad-afternoon
run "big-${apps}apps-${hours}h" "$work/big.yaml"

if command -v chromium >/dev/null 2>&1; then
    echo "== browser load (headless Chromium, file://)"
    python3 scripts/browser_check.py "$work/shots" "$work/ipad-afternoon/report.html" "$work/big-${apps}apps-${hours}h/report.html" \
        | grep -E '^(ok|FAIL)|problem' | sed -E 's/, screenshots .*//'
else
    echo "(no chromium: browser load time skipped; scripts/browser-check.sh installs it)"
fi
