#!/usr/bin/env bash
# Benchmark of the reports people look at (issue 9): report.html's size and the time to write it,
# and how long headless Chromium takes to render it (navigation to load event, and to the end of
# the page's script), median of 3 loads. Workloads: the largest built-in one and the large
# generated one of scripts/gen-workload.py (50 apps, 450 simulated hours, 100,000 switches),
# --no-sampling, release build. The targets: report.html ≤ 5 MB and rendered in ≤ 0.3 s for any run.
#
# usage: scripts/bench-html.sh [gen-workload.py arguments]     (env: SCRATCH=.build)
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=${SCRATCH:-.build}
work=$(mktemp -d /tmp/memprof-bench-html-XXXXXX)
trap 'rm -rf "$work"' EXIT
gen_args=("$@")
[ ${#gen_args[@]} -eq 0 ] && gen_args=(--apps 50 --hours 450 --switches 100000)

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GB", $2/1048576}' /proc/meminfo), $(uname -sr)"
echo "release build ($scratch)"
swift build -c release --scratch-path "$scratch" --product memprof >/dev/null
memprof="$(pwd)/$scratch/release/memprof"
python3 scripts/gen-workload.py "${gen_args[@]}" > "$work/big.yaml"
echo "generated workload: scripts/gen-workload.py ${gen_args[*]} ($(stat -c %s "$work/big.yaml") bytes)"

run() {
    local name=$1 workload=$2
    MEMPROF_TIMINGS=1 "$memprof" run "$workload" --no-sampling --out "$work/$name" >/dev/null 2>"$work/$name.timings"
    echo "== $name"
    grep '^timing report.html' "$work/$name.timings" | awk '{printf "   write report.html       %8s ms\n", $3}'
    printf "   report.html size        %8.2f MB\n" "$(echo "$(stat -c %s "$work/$name/report.html") / 1048576" | bc -l)"
}
run ipad-afternoon ipad-afternoon
run big "$work/big.yaml"

if ! command -v chromium >/dev/null 2>&1; then
    echo "(no chromium: render time skipped; scripts/setup.sh --tests installs it)"
    exit 0
fi
echo "== render in headless Chromium (file://, 1400 px), median of 3 loads"
python3 - "$work/ipad-afternoon/report.html" "$work/big/report.html" <<'PY'
import json, os, statistics, sys, urllib.parse
sys.path.insert(0, "scripts")
from browser_check import Browser

browser = Browser()
try:
    for path in sys.argv[1:]:
        loads, ready = [], []
        for _ in range(3):
            target = browser.call("Target.createTarget", {"url": "about:blank"})["targetId"]
            session = browser.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
            browser.call("Page.enable", session=session)
            browser.call("Emulation.setDeviceMetricsOverride", {"width": 1400, "height": 1000, "deviceScaleFactor": 1, "mobile": False}, session=session)
            browser.events.clear()
            browser.call("Page.navigate", {"url": "file://" + urllib.parse.quote(os.path.abspath(path))}, session=session)
            browser.wait_for("Page.loadEventFired")
            value = browser.call("Runtime.evaluate", {"expression": "JSON.stringify({load: performance.getEntriesByType('navigation')[0].loadEventEnd, ready: window.__memprofReadyMs||0})", "returnByValue": True}, session=session)
            t = json.loads(value["result"]["value"])
            loads.append(t["load"]); ready.append(t["ready"])
            browser.call("Target.closeTarget", {"targetId": target})
        name = os.path.basename(os.path.dirname(path))
        print(f"   {name:<16} load event {statistics.median(loads):6.0f} ms, script done {statistics.median(ready):6.0f} ms "
              f"(all loads: {', '.join(f'{x:.0f}' for x in loads)} ms)")
finally:
    browser.close()
PY
