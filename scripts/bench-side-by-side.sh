#!/usr/bin/env bash
# Benchmarks this checkout's `memprof run` against another build of memprof, side by side in one
# run of this script, on the 450-hour workload of scripts/bench.sh (50 apps, 100,000 switches):
#   scripts/bench-side-by-side.sh OTHER_MEMPROF [REPEAT]
# Runs alternate (this build, the other, this build...) REPEAT times each (default 5), so load
# from other work on the machine falls on both alike. For each build it prints the median and
# best of: end to end wall time, CPU time (user + system, which a loaded machine inflates less),
# peak RSS, the simulating thread's CPU time, and each file's writer (MB/s of wall time, and for
# the files made as the run goes MB per second of the writing threads' CPU time, from --timings),
# then the ratios this build / the other (below 1 for times and RSS, above 1 for MB/s: this build
# is faster or smaller).
# Last, what writing past the page cache (O_DIRECT, as the run's writers do) saves on the disk the
# reports go to: 400 MB written by dd with and without oflag=direct, alternating, flushed.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
other="${1:?usage: scripts/bench-side-by-side.sh OTHER_MEMPROF [REPEAT]}"
repeat="${2:-5}"
swift build -c release --disable-default-traits --product memprof >&2
this="$root/.build/release/memprof"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "machine        $(lscpu | sed -n 's/^Model name: *//p') ($(nproc) cores), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "this           $this ($(git rev-parse --short HEAD))"
echo "other          $other"
python3 scripts/gen-workload.py --apps 50 --hours 450 --switches 100000 --name big > "$work/big.yaml"

for n in $(seq "$repeat"); do
    for side in this other; do
        bin="$this"; [ "$side" = other ] && bin="$other"
        rm -rf "$work/out"
        /usr/bin/time -f 'time %e %M %U %S' "$bin" run "$work/big.yaml" --no-sampling --timings --out "$work/out" \
            >/dev/null 2>"$work/$side-$n.err"
    done
done

python3 - "$work" "$repeat" <<'PY'
import statistics, sys
work, repeat = sys.argv[1], int(sys.argv[2])
figures = {}
for side in ("this", "other"):
    runs = []
    for n in range(1, repeat + 1):
        run, sizes, cpu_ms = {}, {}, {}
        for line in open(f"{work}/{side}-{n}.err"):
            f = line.split()
            if f[:1] == ["time"]:
                run["wall s"] = float(f[1]); run["peak RSS MB"] = int(f[2]) / 1024
                run["CPU s"] = float(f[3]) + float(f[4])
            elif f[:2] == ["timing-cpu", "simulation"]:
                run["simulation CPU s"] = float(f[2]) / 1000
            elif f[:1] == ["timing"] and len(f) >= 5:
                run[f"{f[1]} MB/s"] = int(f[4]) / 1048576 / (float(f[2]) / 1000)
                sizes[f[1]] = int(f[4])
            elif f[:1] == ["timing-cpu"]:
                cpu_ms[f[1]] = float(f[2])
        # The writers of the files made as the run goes: MB per second of their threads' CPU time.
        for name, ms in cpu_ms.items():
            if name in sizes and ms > 0:
                run[f"{name} MB/CPU-s"] = sizes[name] / 1048576 / (ms / 1000)
        runs.append(run)
    figures[side] = runs
keys = [k for k in figures["this"][0] if all(k in r for s in figures.values() for r in s)]
higher_is_better = lambda k: k.endswith("MB/s") or k.endswith("MB/CPU-s")
print(f"{'figure':<24}{'this (median / best)':>26}{'other (median / best)':>26}{'this / other':>14}")
for k in keys:
    cols = []
    for side in ("this", "other"):
        values = [r[k] for r in figures[side]]
        best = max(values) if higher_is_better(k) else min(values)
        cols.append((statistics.median(values), best))
    ratio = cols[0][0] / cols[1][0] if cols[1][0] else float("nan")
    print(f"{k:<24}{cols[0][0]:>16.2f} / {cols[0][1]:<7.2f}{cols[1][0]:>16.2f} / {cols[1][1]:<7.2f}{ratio:>12.2f}")
PY

echo
echo "== 400 MB to the reports' disk: past the page cache (O_DIRECT) and through it (dd, fsync)"
for _ in $(seq "$repeat"); do
    for mode in direct cache; do
        flags="conv=fsync"; [ "$mode" = direct ] && flags="oflag=direct conv=fsync"
        rm -f "$work/dd"
        # shellcheck disable=SC2086
        /usr/bin/time -f "$mode %e %U %S" dd if=/dev/zero of="$work/dd" bs=2M count=200 $flags 2>&1 | grep -E "^$mode "
    done
done | awk '{ wall[$1] = wall[$1] " " $2; cpu[$1] = cpu[$1] " " $3 + $4 }
            END { for (m in wall) printf "%-8s wall s:%s   CPU s:%s\n", m, wall[m], cpu[m] }' | sort
