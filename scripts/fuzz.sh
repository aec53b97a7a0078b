#!/usr/bin/env bash
# Fuzzes every parser of untrusted input: the workload parser (and the engine behind
# it), the YAML composer and node reader every YAML file is read through (yaml), the sweep file, the thresholds and budget parsers, the report reader of compare/check/export
# and its fast decoder against JSONDecoder (plain-json), fleet results (fleet), MetricKit payloads (metrickit), calibration.json (calibration) and field.json (field-json). Each
# target starts from its seeds (built-in workloads, baseline reports, example files) and prints
# executions, corpus size and crashes; a crashing or hanging input is saved under
# .build/fuzz/crashes and the script exits 1.
#
#   scripts/fuzz.sh                      # libFuzzer (swiftc -sanitize=fuzzer), 300 s per target
#   scripts/fuzz.sh --seconds 30 --loop  # the seeded mutation loop of the debug build (test.sh)
#   scripts/fuzz.sh --target report --seconds 3600
#
# Replay a saved input: .build/debug/memprof-fuzz replay TARGET FILE
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
seconds=300
targets="workload yaml sweep thresholds budget report plain-json fleet metrickit calibration field-json"
mode=libfuzzer
seed=1
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --target) targets="$2"; shift 2 ;;
        --loop) mode=loop; shift ;;
        --seed) seed="$2"; shift 2 ;;
        *) echo "usage: scripts/fuzz.sh [--seconds N] [--target NAME] [--loop] [--seed N]" >&2; exit 2 ;;
    esac
done
crashes="$root/.build/fuzz/crashes"
mkdir -p "$crashes"
swift build --product memprof-fuzz >/dev/null
loop_bin="$root/.build/debug/memprof-fuzz"
if [ "$mode" = libfuzzer ]; then
    echo "fuzz: building the libFuzzer binary (release, -sanitize=fuzzer, .build/libfuzzer)"
    # lld: gold fails on this link (an internal error in its DWARF reader).
    if swift build -c release --product memprof-fuzz -Xswiftc -sanitize=fuzzer -Xswiftc -DFUZZING \
        -Xswiftc -use-ld=lld --build-path .build/libfuzzer >.build/fuzz/build.log 2>&1; then
        fuzz_bin="$root/.build/libfuzzer/release/memprof-fuzz"
    else
        echo "fuzz: libFuzzer build failed (.build/fuzz/build.log); using the mutation loop"
        mode=loop
    fi
fi

status=0
total=0
for target in $targets; do
    if [ "$mode" = libfuzzer ]; then
        corpus="$root/.build/fuzz/corpus/$target"
        mkdir -p "$corpus"
        "$loop_bin" seeds "$target" "$corpus"
        max_len=65536
        [ "$target" = report ] && max_len=4194304
        log="$root/.build/fuzz/$target.log"
        if MEMPROF_FUZZ_TARGET="$target" "$fuzz_bin" "$corpus" -max_total_time="$seconds" -max_len="$max_len" \
            -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$crashes/$target-" >"$log" 2>&1; then
            found=0
        else
            found=1
            status=1
        fi
        runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
        size=$(ls "$corpus" | wc -l)
        echo "$target: $runs executions in $seconds s (libFuzzer), corpus $size, crashes $found"
        [ "$found" = 1 ] && { echo "fuzz: $target failed; see $log and $crashes"; tail -20 "$log"; }
        total=$((total + runs))
    else
        if line=$(MEMPROF_FUZZ_CRASHES="$crashes" "$loop_bin" loop "$target" "$seconds" "$seed"); then
            echo "$line"
            # "TARGET: N executions in ...": the count after the target's own name, whatever it holds.
            runs=${line#"$target: "}
            runs=${runs%% *}
            total=$((total + runs))
        else
            saved="$crashes/crash-$target-$(date +%s)"
            python3 - "$crashes/current-$target" "$saved" <<'PY'
import struct, sys
data = open(sys.argv[1], 'rb').read()
n = struct.unpack('<Q', data[:8])[0]
open(sys.argv[2], 'wb').write(data[8:8 + n])
PY
            echo "$target: crashes 1 (input saved to $saved)"
            status=1
        fi
    fi
done
echo "fuzz: $total executions in all, mode $mode"
exit $status
