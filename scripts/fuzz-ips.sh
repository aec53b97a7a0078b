#!/usr/bin/env bash
# libFuzzer on the JetsamEvent .ips reader (issue 16): builds the reader's sources with
# -sanitize=fuzzer,address into .build/fuzz/ips and runs it from the test fixtures.
#   scripts/fuzz-ips.sh [RUNS]     (default 200000 runs; 0 runs until stopped)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs="${1:-200000}"
out="$root/.build/fuzz/ips"
mkdir -p "$out/src" "$out/corpus"
# The reader and what it needs from MemprofOutput and MemprofWorkload, as one module.
for f in Sources/MemprofField/JSONNode.swift Sources/MemprofField/JetsamReport.swift \
         Sources/MemprofField/JetsamReportReader.swift Sources/MemprofOutput/MemprofError.swift \
         Sources/MemprofWorkload/WorkloadError.swift; do
    grep -v '^import Memprof' "$root/$f" > "$out/src/$(basename "$f")"
done
swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name MemprofFieldFuzz \
    "$out"/src/*.swift "$root/scripts/fuzz/IPSFuzzTarget.swift" -o "$out/ips-fuzz"
cp "$root"/Tests/MemprofFieldTests/Fixtures/*.ips "$out/corpus/"
"$out/ips-fuzz" -runs="$runs" -max_len=65536 -timeout=10 "$out/corpus"
