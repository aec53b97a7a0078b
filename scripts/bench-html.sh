#!/usr/bin/env bash
# Benchmark of the reports people look at: report.html's size and the time to write it,
# and how long headless Chromium takes to render it (scripts/html_render.py: to the load event, the
# end of the page's script and the first frame after both, and the page's main-thread CPU time),
# median of 3 loads. Workloads: the largest built-in one and the large
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
    "$memprof" run "$workload" --no-sampling --timings --out "$work/$name" >/dev/null 2>"$work/$name.timings"
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
echo "== render in headless Chromium (file://, 1400 x 1000 px), median of 3 loads (scripts/html_render.py)"
python3 scripts/html_render.py "$work/ipad-afternoon/report.html" "$work/big/report.html"
