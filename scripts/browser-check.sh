#!/usr/bin/env bash
# Opens report.html of every built-in workload and of 150 generated apps, a compare page of two
# of the workloads and the runs index in headless Chromium and fails on any console error,
# uncaught exception or network request, or when a point of the pages does not work
# (browser_check.py lists them). Saves light and dark PNG screenshots at 1400 and 390 px to look at.
#
# usage: scripts/browser-check.sh [OUTDIR]     (env: SCRATCH=.build-html, MEMPROF=path/to/memprof)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out=${1:-$(mktemp -d /tmp/memprof-browser-XXXXXX)}
mkdir -p "$out"

"$(dirname "${BASH_SOURCE[0]}")/setup.sh" --tests   # chromium, golang-go and the rest, when missing

memprof=${MEMPROF:-}
if [[ -z "$memprof" ]]; then
    scratch=${SCRATCH:-.build}
    swift build --scratch-path "$scratch" --product memprof >/dev/null
    memprof="$root/$scratch/debug/memprof"
fi

work=$(mktemp -d /tmp/memprof-browser-runs-XXXXXX)
trap 'rm -rf "$work"' EXIT
pages=()
for workload in $("$memprof" list workloads | awk 'NF && $1 !~ /:$/ {print $1}'); do
    (cd "$work" && "$memprof" run "$workload" >/dev/null)
    pages+=("$work/Reports/$workload/report.html")
done
# A compare page of two built-in workloads beside their reports (links, overlay, grouped causes).
(cd "$work" && "$memprof" compare Reports/phone-day Reports/phone-day-xnu --allow-different \
    --html Reports/compare.html >/dev/null) || [ $? -eq 1 ]    # exit 1: the xnu day is worse, as expected
[[ -s "$work/Reports/compare.html" ]] || { echo "compare wrote no page"; exit 1; }
pages+=("$work/Reports/compare.html" "$work/Reports/index.html")
# A page past 100 apps, which draws the 100 most affected and sums the rest (its lanes are taller
# than the window).
python3 scripts/gen-workload.py --apps 150 --hours 6 --switches 2000 --name many-apps >"$work/many-apps.yaml"
(cd "$work" && "$memprof" run many-apps.yaml --no-sampling >/dev/null)
pages+=("$work/Reports/many-apps/report.html")
# fleet.html of a small sweep: two devices × two policies over 12 seeds.
printf 'memprof: 1\nsweep: browser-fleet\nworkload: phone-day\nseeds: 1..12\nmatrix:\n  device: [iphone-6-plus, ipad-air-2]\n  policy: [seed-2015, xnu]\n' >"$work/fleet.yaml"
(cd "$work" && "$memprof" sweep fleet.yaml >/dev/null)
pages+=("$work/Reports/browser-fleet/fleet.html")
# calibration.html of a small calibration: a field memprof writes itself (a three-hour day on
# two iPhones with 1,500 MB reserved, exported as MetricKit payloads), fitted on the reserve.
cp scripts/examples/calibration-day.yaml "$work/day.yaml"   # the what-if test's day too
printf 'memprof: 1\nsweep: truth\nworkload: day.yaml\nseeds: 1001..1030\nset: {device.systemReserved: 1500MB}\nmatrix:\n  device.preset: [iphone-xr, iphone-11]\n' >"$work/truth.yaml"
printf 'memprof: 1\nsweep: team\nworkload: day.yaml\nseeds: 1..1000\nmatrix:\n  device.preset: [iphone-xr, iphone-11]\ncalibrate:\n  app: team\n  parameters:\n    - {key: device.systemReserved, low: 0MB, high: 2000MB}\n  budget: 6\n  maxSeeds: 20\n  profilePoints: 4\n' >"$work/team.yaml"
(cd "$work" && "$memprof" sweep truth.yaml --out truth >/dev/null && "$memprof" export truth --format metrickit -o payloads 2>/dev/null \
    && "$memprof" calibrate payloads --sweep team.yaml --out calibrated >/dev/null 2>&1) || [ $? -eq 1 ]
# It fits (exit 0); a calibration without a fit (exit 1) writes the same page, so the check of
# the page accepts that too.
[[ -s "$work/calibrated/calibration.html" ]] || { echo "calibrate wrote no page"; exit 1; }
pages+=("$work/calibrated/calibration.html")
echo "checking ${#pages[@]} pages; screenshots go to $out"
python3 scripts/browser_check.py "$out" "${pages[@]}"
