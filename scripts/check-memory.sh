#!/usr/bin/env bash
# Memory that does not grow with the run: `memprof run` on a generated workload of 1 day
# and on the same apps at the same pace over 7 days (scripts/gen-workload.py); the 7-day run's peak
# RSS must be at most MEMORY_RATIO_LIMIT times the 1-day run's (default 1.2). Measured 1.06
# (release build) with these workloads; a run that kept its events, or wrote its files from
# memory, is at 4-5x, one whose report.html kept every decision at 1.25. Quick: a few thousand switches.
#   scripts/check-memory.sh [MEMPROF_BIN]   (default .build/debug/memprof)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${1:-$root/.build/debug/memprof}"
limit="${MEMORY_RATIO_LIMIT:-1.2}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 "$root/scripts/gen-workload.py" --apps 30 --days 1 --switches 800 --name day > "$work/day.yaml"
python3 "$root/scripts/gen-workload.py" --apps 30 --days 7 --switches 5600 --name week > "$work/week.yaml"
peak() {
    /usr/bin/time -f '%M' "$bin" run "$work/$1.yaml" --no-sampling --out "$work/out-$1" >/dev/null 2>"$work/$1.err" \
        || { cat "$work/$1.err" >&2; exit 1; }
    tail -1 "$work/$1.err"
}
day="$(peak day)"
week="$(peak week)"
events() { python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["events"]))' "$work/out-$1/report.json"; }
awk -v d="$day" -v w="$week" -v l="$limit" -v de="$(events day)" -v we="$(events week)" 'BEGIN {
    printf "peak RSS: 1 day %.1f MB (%d events), 7 days %.1f MB (%d events): %.2fx (at most %s)\n", d / 1024, de, w / 1024, we, w / d, l
    exit !(w / d <= l)
}'
