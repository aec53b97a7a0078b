#!/usr/bin/env bash
# Fleet sweep figures, release build: 1,000 seeds of phone-day end to end (fleet.json,
# runs.csv and fleet.html written), 1 against 2 threads, peak memory of 10,000 seeds against 1,000,
# and the merge of 64 shards of a 10,000-seed sweep. Prints the figures; asserts nothing.
#
# usage: scripts/bench-fleet.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
swift build -c release --disable-default-traits --product memprof >/dev/null
memprof="$root/.build/release/memprof"
work="$(mktemp -d /tmp/memprof-bench-fleet-XXXXXX)"
trap 'rm -rf "$work"' EXIT
sweep() {  # sweep NAME SEEDS: a sweep file of phone-day over 1..SEEDS
    printf 'memprof: 1\nsweep: %s\nworkload: phone-day\nseeds: 1..%s\n' "$1" "$2" >"$work/$1.yaml"
}
measure() {  # measure LABEL COMMAND...: wall seconds and peak RSS of one command
    local label="$1"
    shift
    /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$@" >/dev/null
    read -r seconds user sys kb <"$work/time"
    printf '%-44s %6.2f s wall  %6.2f s CPU  %7.1f MB peak\n' "$label" "$seconds" "$(echo "$user + $sys" | bc -l)" \
        "$(echo "$kb / 1024" | bc -l)"
    echo "$seconds $kb" >"$work/last"
}
cores=$(nproc)
echo "memprof bench-fleet: $(uname -m), $cores cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) (other processes share the cores: wall times and the"
echo "speed-up need an idle machine; CPU seconds show the work done)"
sweep s1k 1000
sweep s10k 10000
cd "$work"
measure "1,000 seeds of phone-day, $cores threads" "$memprof" sweep s1k.yaml --out o1k
read -r t2 m1k <"$work/last"
# The speed-up from medians of 5 alternating pairs: single runs on this VM move by 20% or more.
ones=() twos=()
for pair in 1 2 3 4 5; do
    measure "1,000 seeds of phone-day, 1 thread ($pair/5)" "$memprof" sweep s1k.yaml --out o1k1 --threads 1
    read -r t _ <"$work/last"; ones+=("$t")
    measure "1,000 seeds of phone-day, 2 threads ($pair/5)" "$memprof" sweep s1k.yaml --out o1k2 --threads 2
    read -r t _ <"$work/last"; twos+=("$t")
done
median() { printf '%s\n' "$@" | sort -n | sed -n 3p; }
t1="$(median "${ones[@]}")" t2b="$(median "${twos[@]}")"
printf '%-44s %6.2fx (medians %.2f s and %.2f s)\n' "speed-up, 2 threads over 1" "$(echo "$t1 / $t2b" | bc -l)" "$t1" "$t2b"
measure "10,000 seeds of phone-day, $cores threads" "$memprof" sweep s10k.yaml --out o10k
read -r t10k m10k <"$work/last"
printf '%-44s %6.2fx time, %5.2fx peak memory\n' "10,000 seeds against 1,000" "$(echo "$t10k / $t2" | bc -l)" "$(echo "$m10k / $m1k" | bc -l)"
for k in $(seq 1 64); do "$memprof" sweep s10k.yaml --shard "$k/64" --out "shard-$k" >/dev/null; done
measure "merge of 64 shards of 10,000 seeds" "$memprof" merge $(for k in $(seq 1 64); do echo "shard-$k"; done) --out merged
cmp merged/runs.csv o10k/runs.csv && echo "merged runs.csv equals the unsharded sweep's"
ls -l o1k o10k | awk 'NF > 5 {print "  " $5 "\t" $NF}'
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
