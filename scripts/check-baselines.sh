#!/usr/bin/env bash
# Re-runs every built-in workload and compares it with its baseline in Reports/baselines/<name>/
# (`memprof compare`, default thresholds: any rise of a count fails). Exit 1 on a regression, and
# also on any other change of the deterministic part of the report (everything but `host` and
# `profile`): the simulation is deterministic, so a change nobody recorded is unintended.
# A workload without a baseline is reported and skipped; set STRICT_BASELINES=1 to fail instead.
# Record baselines with scripts/update-baselines.sh.
# Uses $MEMPROF_BIN when set, otherwise builds .build/debug/memprof.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bin="${MEMPROF_BIN:-}"
if [ -z "$bin" ]; then
  swift build --product memprof >&2
  bin="$root/.build/debug/memprof"
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
status=0
checked=0
while read -r name _; do
  [ -n "$name" ] || continue
  baseline="Reports/baselines/$name/report.json"
  if [ ! -f "$baseline" ]; then
    echo "check-baselines: no baseline for $name ($baseline); record it with scripts/update-baselines.sh" >&2
    [ "${STRICT_BASELINES:-0}" = "1" ] && status=1
    continue
  fi
  "$bin" run "$name" --out "$tmp/$name" --no-sampling >/dev/null
  set +e
  "$bin" compare "$baseline" "$tmp/$name/report.json"
  rc=$?
  set -e
  checked=$((checked + 1))
  if [ $rc -eq 1 ]; then
    echo "check-baselines: $name regressed against $baseline" >&2
    status=1
  elif [ $rc -ne 0 ]; then
    echo "check-baselines: could not compare $name (exit $rc)" >&2
    status=1
  elif ! python3 - "$baseline" "$tmp/$name/report.json" <<'PY'
import json, sys
a, b = (json.load(open(path)) for path in sys.argv[1:3])
for report in (a, b):
    report.pop("host", None)
    report.pop("profile", None)
if a != b:
    changed = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
    print("check-baselines: the report changed in: " + ", ".join(changed), file=sys.stderr)
    sys.exit(1)
PY
  then
    echo "check-baselines: $name behaves differently from $baseline although no metric got worse;" \
      "if the change is intended, re-record with scripts/update-baselines.sh $name" >&2
    status=1
  fi
done < <("$bin" list workloads)
echo "check-baselines: $checked workload(s) compared"
exit $status
