#!/usr/bin/env bash
# Calibration figures, release build: a field of three device cells written by memprof itself
# (scripts/examples/team-users.yaml: 80 device-days a cell, exported as MetricKit payloads), then
# `memprof calibrate` fitting three parameters to it (the system's reserve, the switching rate,
# the game's footprint) within a budget of 30 search evaluations and 6 profile points each.
# Prints wall time, evaluations, runs, runs per second and peak RSS; asserts nothing.
#
# usage: scripts/bench-calibrate.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
swift build -c release --disable-default-traits --product memprof >/dev/null
memprof="$root/.build/release/memprof"
work="$(mktemp -d /tmp/memprof-bench-calibrate-XXXXXX)"
trap 'rm -rf "$work"' EXIT
cp scripts/examples/team-day.yaml scripts/examples/team-users.yaml "$work/"
cat >"$work/fit.yaml" <<'YAML'
memprof: 1
sweep: team-bench
workload: team-day.yaml
seeds: 1..1000
calibrate:
  app: team
  parameters:
    - {key: device.systemReserved, low: 0MB, high: 2000MB}
    - {key: generate.switchEvery, low: 2m, high: 12m}
    - {key: apps.game.launch.footprint, low: 1000MB, high: 2000MB}
  budget: 30
  profilePoints: 6
YAML
cd "$work"
echo "memprof bench-calibrate: $(uname -m), $(nproc) cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) (other processes share the cores: wall time needs an idle machine)"
"$memprof" sweep team-users.yaml --out users >/dev/null
"$memprof" export users --format metrickit -o payloads >/dev/null
status=0
/usr/bin/time -f "%e %U %S %M" -o time "$memprof" calibrate payloads --sweep fit.yaml -o out >calibrate.txt 2>progress.txt || status=$?
read -r seconds user sys kb <time
head -1 calibrate.txt
python3 - "$seconds" "$user" "$sys" "$kb" "$status" <<'PY'
import json, sys
seconds, user, sys_, kb, status = float(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
c = json.load(open("out/calibration.json"))
fit = sum(1 for cell in c["cells"] if cell["role"] == "fit")
runs = sum((len(c["cells"]) if e["phase"] == "final" else fit) * (50 if e["phase"] == "pilot" else c["seeds"]["count"])
           for e in c["evaluations"])
print(f"outcome {c['outcome']} (exit {status}); {len(c['cells'])} cells, {len(c['parameters'])} parameters, "
      f"{c['seeds']['count']} seeds an evaluation")
print(f"evaluations {len(c['evaluations'])} (search {c['budget']['used']} of {c['budget']['evaluations']}, "
      f"profile {c['budget']['profile']}, pilot and final 2); runs {runs}")
print(f"wall {seconds:.1f} s, CPU {user + sys_:.1f} s, {runs / seconds:.0f} runs/s, peak RSS {kb / 1024:.1f} MB")
for p in c["parameters"]:
    print(f"  {p['key']}: fitted {p['fittedText']}, interval {p['interval']}, constrained {p['constrained']}")
PY
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
