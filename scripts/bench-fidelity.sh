#!/usr/bin/env bash
# Field fidelity: imports every published report of the corpus
# (Tests/MemprofFieldTests/Fixtures/corpus, sources in its SOURCES.md), runs the workload import
# writes under `xnu`, and compares the run's memory kills with the report's.
#
#   scripts/bench-fidelity.sh [-c debug|release]
#
# Per report: imported or not; memory kills reproduced K/N — a kill of the report whose reason
# memprof models (vm-pageshortage, per-process-limit, highwater) counts when the run kills the
# same process, for the same reason, in the same place of the order (the report's order: by
# killDelta, else as listed); the kills of other reasons, carried as facts. Then the totals.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
config=debug
if [ "${1:-}" = "-c" ]; then config="${2:?-c needs debug or release}"; fi
cd "$root"
swift build -c "$config" --product memprof >&2
bin="$root/.build/$config"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

printf '%-42s %-9s %-11s %s\n' report imported kills facts
total_reports=0 imported=0 total_kills=0 reproduced=0
for report in "$root"/Tests/MemprofFieldTests/Fixtures/corpus/*; do
    case "$report" in *.md) continue ;; esac
    name="$(basename "$report")"
    total_reports=$((total_reports + 1))
    out="$work/${name%.*}"
    mkdir -p "$out"
    if ! "$bin/memprof" import "$report" -o "$out/workload.yaml" --name replay 2> "$out/import.log"; then
        expected="$(python3 "$root/scripts/fidelity_kills.py" expected "$report" | head -1)"
        printf '%-42s %-9s %-11s %s\n' "$name" no "0/${expected%% *}" "$(head -c 200 "$out/import.log" | tr '\n' ' ')"
        total_kills=$((total_kills + ${expected%% *}))
        continue
    fi
    imported=$((imported + 1))
    if ! "$bin/memprof" run "$out/workload.yaml" --out "$out/run" > "$out/run.log" 2>&1; then
        expected="$(python3 "$root/scripts/fidelity_kills.py" expected "$report" | head -1)"
        printf '%-42s %-9s %-11s %s\n' "$name" yes "0/${expected%% *}" "run failed: $(head -c 200 "$out/run.log" | tr '\n' ' ')"
        total_kills=$((total_kills + ${expected%% *}))
        continue
    fi
    read -r k n facts < <(python3 "$root/scripts/fidelity_kills.py" compare "$report" "$out/workload.yaml" "$out/run/report.json")
    total_kills=$((total_kills + n))
    reproduced=$((reproduced + k))
    printf '%-42s %-9s %-11s %s\n' "$name" yes "$k/$n" "${facts//_/ }"
done
percent=100
[ "$total_kills" -gt 0 ] && percent=$((100 * reproduced / total_kills))
printf '%-42s %-9s %-11s\n' total "$imported/$total_reports" "$reproduced/$total_kills ($percent%)"
