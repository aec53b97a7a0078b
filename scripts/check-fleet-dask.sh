#!/usr/bin/env bash
# Starts a real Dask distributed cluster on loopback (a scheduler and several worker processes),
# runs a sweep through it in shards (scripts/fleet_dask.py), and checks that the merged result
# equals the single-machine sweep byte for byte: runs.csv whole, fleet.json except its host; then
# a calibration whose evaluations run on it (calibrate --dask) equals the local one byte for byte.
#
# usage: scripts/check-fleet-dask.sh [MEMPROF]   (env: FLEET_VENV, default .build/fleet-venv)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
memprof="${1:-${MEMPROF_BIN:-$root/.build/debug/memprof}}"
venv="${FLEET_VENV:-$root/.build/fleet-venv}"
"$root/scripts/setup.sh" --fleet
work="$(mktemp -d /tmp/memprof-dask-XXXXXX)"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
cat > "$work/sweep.yaml" <<'YAML'
memprof: 1
sweep: dask-check
workload: phone-day
seeds: 1..24
matrix:
  device: [iphone-6-plus, ipad-air-2]
  policy: [seed-2015, xnu]
YAML
cd "$work"
# Dask's scheduler and workers keep their scratch space (dask-scratch-space) here, not in /tmp.
export DASK_TEMPORARY_DIRECTORY="$work"
"$venv/bin/dask" scheduler --host 127.0.0.1 --port 0 --no-dashboard --scheduler-file "$work/scheduler.json" \
    >"$work/scheduler.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 100); do [[ -s "$work/scheduler.json" ]] && break; sleep 0.2; done
workers=3
for i in $(seq 1 $workers); do
    "$venv/bin/dask" worker --scheduler-file "$work/scheduler.json" --host 127.0.0.1 --nworkers 1 --nthreads 1 \
        --no-dashboard --name "w$i" >"$work/worker-$i.log" 2>&1 &
    pids+=($!)
done
"$venv/bin/python" - "$work/scheduler.json" "$workers" <<'PY'
import sys, time
from dask.distributed import Client
c = Client(scheduler_file=sys.argv[1]); c.wait_for_workers(int(sys.argv[2]), timeout=120); c.close()
PY
"$venv/bin/python" "$root/scripts/fleet_dask.py" sweep.yaml --shards 7 --out "$work/via-dask" \
    --scheduler-file "$work/scheduler.json" --memprof "$memprof"
"$memprof" sweep sweep.yaml --out "$work/single" >/dev/null
cmp "$work/single/runs.csv" "$work/via-dask/runs.csv"
strip_host() {  # fleet.json without its "host" object (keys are sorted: it comes just before "runsFile")
    python3 -c 'import sys; t=open(sys.argv[1]).read(); a=t.index(",\"host\":{"); b=t.index("},\"runsFile\":", a); print(t[:a] + t[b+1:], end="")' "$1"
}
if [[ "$(strip_host "$work/single/fleet.json")" != "$(strip_host "$work/via-dask/fleet.json")" ]]; then
    echo "check-fleet-dask: fleet.json through Dask differs from the single-machine sweep" >&2
    exit 1
fi
grep -q '"host"' "$work/via-dask/fleet.json"
echo "check-fleet-dask: 7 shards on $workers Dask workers merged equal the single-machine sweep (runs.csv and fleet.json but host)"

# A calibration whose evaluations run on the same cluster (calibrate --dask) writes the same files
# as one on this machine's threads: a field memprof writes itself (the three-hour day of
# scripts/examples/calibration-day.yaml, 1,500 MB reserved), fitted on the reserve.
cp "$root/scripts/examples/calibration-day.yaml" "$work/day.yaml"
printf 'memprof: 1\nsweep: truth\nworkload: day.yaml\nseeds: 1001..1012\nset: {device.systemReserved: 1500MB}\nmatrix:\n  device.preset: [iphone-xr, iphone-11]\n' >"$work/truth.yaml"
printf 'memprof: 1\nsweep: team\nworkload: day.yaml\nseeds: 1..1000\nmatrix:\n  device.preset: [iphone-xr, iphone-11]\ncalibrate:\n  app: team\n  parameters:\n    - {key: device.systemReserved, low: 0MB, high: 2000MB}\n  budget: 4\n  maxSeeds: 20\n  profilePoints: 3\n' >"$work/team.yaml"
"$memprof" sweep truth.yaml --out truth >/dev/null
"$memprof" export truth --format metrickit -o payloads >/dev/null 2>&1
calibrate() {  # exit 1 is a calibration without a fit: its files are written all the same
    "$memprof" calibrate payloads --sweep team.yaml "$@" >"$work/calibrate.out" 2>"$work/calibrate.err" || [ $? -eq 1 ] \
        || { cat "$work/calibrate.err" >&2; exit 1; }
}
calibrate --out local
calibrate --out on-dask --dask "$work/scheduler.json" --dask-shards 3 --dask-python "$venv/bin/python" \
    --dask-runner "$root/scripts/fleet_dask.py"
for name in calibration.json sweep.yaml calibration.html; do
    cmp "$work/local/$name" "$work/on-dask/$name"
done
evaluations=$(grep -c '"phase"' "$work/on-dask/calibration.json")
echo "check-fleet-dask: calibrate --dask ($evaluations evaluations, each 3 shards on $workers Dask workers) wrote calibration.json, sweep.yaml and calibration.html equal to the local calibration's"

# Interrupted while the runner works (SIGTERM: a script's background job ignores Ctrl-C's
# SIGINT), calibrate --dask exits 143, ends the runner and leaves no scratch folder
# (memprof-dask-* in its temporary folder, here one of its own).
mkdir "$work/tmp"
TMPDIR="$work/tmp" "$memprof" calibrate payloads --sweep team.yaml --out interrupted --dask "$work/scheduler.json" --dask-shards 3 \
    --dask-python "$venv/bin/python" --dask-runner "$root/scripts/fleet_dask.py" >/dev/null 2>"$work/interrupted.err" &
calibrating=$!
runner=""
for _ in $(seq 1 300); do
    runner=$(pgrep -P "$calibrating" -f fleet_dask.py || true)
    [[ -n "$runner" ]] && compgen -G "$work/tmp/memprof-dask-*" >/dev/null && break
    sleep 0.1
done
[[ -n "$runner" ]] || { echo "check-fleet-dask: calibrate --dask started no runner" >&2; exit 1; }
kill -TERM "$calibrating"
status=0
wait "$calibrating" || status=$?
[[ $status -eq 143 ]] || { echo "check-fleet-dask: interrupted calibrate --dask exited $status" >&2; cat "$work/interrupted.err" >&2; exit 1; }
for _ in $(seq 1 50); do kill -0 "$runner" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$runner" 2>/dev/null; then echo "check-fleet-dask: the runner $runner outlived the interrupted calibration" >&2; exit 1; fi
if compgen -G "$work/tmp/*" >/dev/null; then echo "check-fleet-dask: left in the temporary folder: $(ls "$work/tmp")" >&2; exit 1; fi
[[ ! -e "$work/interrupted" ]] || { echo "check-fleet-dask: the interrupted calibration wrote its folder" >&2; exit 1; }
echo "check-fleet-dask: calibrate --dask interrupted (SIGTERM) exited 143, ended its runner and left no scratch folder"
