#!/usr/bin/env bash
# Benchmarks how fast `memprof compare` and `memprof check` read reports, in release
# mode, and in how much memory:
#   1. two reports of a generated 24 h, 50-app workload, compared as compare does it from the
#      command line: the report size, the wall time, the read speed (both reports' bytes per
#      second) and the peak memory (max RSS) of the compare;
#   2. two reports of 1,000, of 10,000 and of 20,000 apps (a 1-hour run, 2, 13 and 26 MB each),
#      compared by this build and, side by side, by the build before compare read the apps'
#      figures into numbered paths (commit d53d77e, built here in a scratch worktree unless
#      $MEMPROF_BEFORE_BIN names it): time, speed, peak memory and their ratios at each size;
#   3. (unless --small) memory against the length of the run: one report of a generated 1-day
#      and one of a 7-day run of the same 50 apps at the same pace, each read by `check` and by
#      `compare` against itself, with the peak memory of each and the ratio 7-day / 1-day;
#   4. (unless --small) one large report (50 apps over 450 hours, 100,000 switches: hundreds of
#      MB), read by `check` against a budget and by `compare` against itself: speed, and peak
#      memory beside the report's size.
# Each figure is the best of 3 runs; beside each wall-time speed, the speed per second of CPU
# time (user + system), which a loaded machine does not change much.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
large=1
[ "${1:-}" = "--small" ] && large=0
swift build -c release --disable-default-traits --product memprof >&2
bin="${MEMPROF_BIN:-$root/.build/release/memprof}"
work="$(mktemp -d)"
trap 'rm -rf "$work"; git -C "$root" worktree prune' EXIT

# best_of COMMAND...: runs it 3 times (exit 0 or 1 accepted), sets best (s), best_rss (KB) and
# best_cpu (the least user + system time of the 3, s).
best_of() {
    best=""
    best_cpu=""
    for _ in 1 2 3; do
        /usr/bin/time -f "%e %M %U %S" -o "$work/time" "$@" >/dev/null || [ $? -eq 1 ]
        # The last line: GNU time puts "Command exited with non-zero status 1" before it.
        read -r seconds rss user system < <(tail -n 1 "$work/time")
        if [ -z "$best" ] || awk "BEGIN{exit !($seconds < $best)}"; then best=$seconds; best_rss=$rss; fi
        cpu=$(awk "BEGIN{print $user + $system}")
        if [ -z "$best_cpu" ] || awk "BEGIN{exit !($cpu < $best_cpu)}"; then best_cpu=$cpu; fi
    done
}
speed() { awk "BEGIN{printf \"%.0f\", $1 / 1048576 / ($2 > 0 ? $2 : 0.001)}"; }
# speeds BYTES: "N MB/s (M MB/s of CPU time)" of the last best_of.
speeds() { echo "$(speed "$1" "$best") MB/s ($(speed "$1" "$best_cpu") MB/s of CPU time)"; }

python3 scripts/gen-workload.py --apps 50 --hours 24 --switches 5000 --name day50 >"$work/day50.yaml"
"$bin" run "$work/day50.yaml" --out "$work/base" --no-sampling >/dev/null 2>&1
"$bin" run "$work/day50.yaml" --out "$work/new" --no-sampling --seed 2 >/dev/null 2>&1
bytes=$(( $(stat -c %s "$work/base/report.json") + $(stat -c %s "$work/new/report.json") ))
best_of "$bin" compare "$work/base" "$work/new"
echo "machine        $(lscpu | sed -n 's/^Model name: *//p') ($(nproc) cores), $(swift --version 2>&1 | head -1)"
echo "reports        2 × $(( bytes / 2 / 1024 / 1024 )) MB (report.json of a 24 h, 50-app run)"
echo "compare        ${best} s (best of 3), $(speeds "$bytes") of report read"
echo "peak memory    $(( best_rss / 1024 )) MB (max RSS), the reports $(( bytes / 1024 / 1024 )) MB"

# 2. Many apps, this build beside the one before (built here from its commit unless given).
before="${MEMPROF_BEFORE_BIN:-}"
if [ -z "$before" ]; then
    git -C "$root" worktree add --detach "$work/before" d53d77e >&2
    swift build -c release --disable-default-traits --product memprof --package-path "$work/before" >&2
    before="$work/before/.build/release/memprof"
fi
for apps in 1000 10000 20000; do
    python3 scripts/gen-workload.py --apps "$apps" --hours 1 --switches 200 --name many >"$work/many.yaml"
    "$bin" run "$work/many.yaml" --out "$work/many1" --no-sampling >/dev/null 2>&1
    "$bin" run "$work/many.yaml" --out "$work/many2" --no-sampling --seed 2 >/dev/null 2>&1
    bytes=$(( $(stat -c %s "$work/many1/report.json") + $(stat -c %s "$work/many2/report.json") ))
    echo "many apps      2 × $(( bytes / 2 / 1024 / 1024 )) MB (report.json of a 1-hour, $apps-app run)"
    for build in before this; do
        exe=$([ "$build" = this ] && echo "$bin" || echo "$before")
        best_of "$exe" compare "$work/many1" "$work/many2"
        printf 'compare %-6s %s s, %s; peak memory %s MB\n' "$build" "$best" "$(speeds "$bytes")" "$(( best_rss / 1024 ))"
        eval "${build}_s=$best ${build}_cpu=$best_cpu ${build}_rss=$best_rss"
    done
    awk "BEGIN{printf \"before / this  %.1fx the time, %.1fx the CPU time, %.1fx the peak memory\\n\", $before_s / $this_s, $before_cpu / $this_cpu, $before_rss / $this_rss}"
    rm -rf "$work/many1" "$work/many2"
done
if [ -z "${MEMPROF_BEFORE_BIN:-}" ]; then git -C "$root" worktree remove --force "$work/before"; fi
[ "$large" = 1 ] || exit 0
printf 'apps:\n  "*": {evictions: {max: 0}, peakFootprintBytes: {max: 1GB}}\nsummary:\n  timeAtPressureUs.critical: {max: 0}\n' >"$work/budget.yaml"
python3 scripts/gen-workload.py --apps 50 --days 1 --switches 5333 --name week >"$work/day1.yaml"
python3 scripts/gen-workload.py --apps 50 --days 7 --switches 37333 --name week >"$work/week.yaml"
for run in day1 week; do
    "$bin" run "$work/$run.yaml" --out "$work/$run" --no-sampling >/dev/null 2>&1
    rm -f "$work/$run/report.html" "$work/$run/trace.json"
done
for command in check compare; do
    for run in day1 week; do
        if [ "$command" = check ]; then best_of "$bin" check "$work/$run" --budget "$work/budget.yaml"
        else best_of "$bin" compare "$work/$run" "$work/$run"; fi
        eval "${command}_${run}_rss=$best_rss"
        size=$(stat -c %s "$work/$run/report.json")
        reads=$([ "$command" = check ] && echo "$size" || echo $(( 2 * size )))
        printf '%-14s %s s, %s; peak memory %s MB for the %s MB report\n' "$command $run" "$best" \
            "$(speeds "$reads")" "$(( best_rss / 1024 ))" "$(( size / 1024 / 1024 ))"
    done
done
awk "BEGIN{printf \"7-day / 1-day  peak memory %.2fx (check), %.2fx (compare)\\n\", $check_week_rss / $check_day1_rss, $compare_week_rss / $compare_day1_rss}"
python3 scripts/gen-workload.py --apps 50 --hours 450 --switches 100000 --name long50 >"$work/long50.yaml"
"$bin" run "$work/long50.yaml" --out "$work/long" --no-sampling >/dev/null 2>&1
rm -f "$work/long/report.html" "$work/long/trace.json"
size=$(stat -c %s "$work/long/report.json")
echo "large report   $(( size / 1024 / 1024 )) MB (report.json of a 450 h, 50-app run, 100,000 switches)"
best_of "$bin" check "$work/long" --budget "$work/budget.yaml"
echo "check          ${best} s, $(speeds "$size"); peak memory $(( best_rss / 1024 )) MB for the $(( size / 1024 / 1024 )) MB report"
best_of "$bin" compare "$work/long" "$work/long"
echo "compare        ${best} s, $(speeds "$(( 2 * size ))") (the report with itself); peak memory $(( best_rss / 1024 )) MB"
