#!/usr/bin/env bash
# Benchmarks how fast `memprof compare` reads reports (issue 15.7), in release mode: two reports
# of a generated 24 h, 50-app workload, compared as compare does it from the command line.
# Prints the report size, the wall time, the read speed (both reports' bytes per second) and the
# peak memory (max RSS) of the compare.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
swift build -c release --product memprof >&2
bin="$root/.build/release/memprof"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 scripts/gen-workload.py --apps 50 --hours 24 --switches 5000 --name day50 >"$work/day50.yaml"
"$bin" run "$work/day50.yaml" --out "$work/base" --no-sampling >/dev/null
"$bin" run "$work/day50.yaml" --out "$work/new" --no-sampling --seed 2 >/dev/null
bytes=$(( $(stat -c %s "$work/base/report.json") + $(stat -c %s "$work/new/report.json") ))
best=""
for _ in 1 2 3; do
    /usr/bin/time -f "%e %M" -o "$work/time" "$bin" compare "$work/base" "$work/new" >/dev/null || [ $? -eq 1 ]
    read -r seconds rss <"$work/time"
    if [ -z "$best" ] || awk "BEGIN{exit !($seconds < $best)}"; then best=$seconds; best_rss=$rss; fi
done
echo "machine        $(lscpu | sed -n 's/^Model name: *//p') ($(nproc) cores), $(swift --version 2>&1 | head -1)"
echo "reports        2 × $(( bytes / 2 / 1024 / 1024 )) MB (report.json of a 24 h, 50-app run)"
echo "compare        ${best} s (best of 3), $(awk "BEGIN{printf \"%.0f\", $bytes / 1048576 / ($best > 0 ? $best : 0.001)}") MB/s of report read"
echo "peak memory    $(( best_rss / 1024 )) MB (max RSS)"
