#!/usr/bin/env bash
# libFuzzer on the JetsamEvent readers (the .ips JSON reader and the text LowMemory reader):
# builds their sources with -sanitize=fuzzer,address into .build/fuzz/ips and runs it from the
# test fixtures, the published corpus, and seeds with duplicate keys and hostile strings.
#   scripts/fuzz-ips.sh [RUNS]     (default 200000 runs; 0 runs until stopped)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs="${1:-200000}"
out="$root/.build/fuzz/ips"
mkdir -p "$out/src" "$out/corpus"
# The reader and what it needs from MemprofInput (the JSON scanner, the located error),
# MemprofOutput and MemprofPlatform (the system's C library), as one module.
for f in Sources/MemprofPlatform/SystemLibrary.swift Sources/MemprofField/JSONNode.swift Sources/MemprofField/JetsamReport.swift \
         Sources/MemprofInput/JSONScanner.swift \
         Sources/MemprofField/JetsamReportReader.swift Sources/MemprofField/LowMemoryReportReader.swift \
         Sources/MemprofOutput/MemprofError.swift \
         Sources/MemprofInput/WorkloadError.swift; do
    grep -v '^import Memprof' "$root/$f" > "$out/src/$(basename "$f")"
done
swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name MemprofFieldFuzz -package-name memprof \
    "$out"/src/*.swift "$root/scripts/fuzz/IPSFuzzTarget.swift" -o "$out/ips-fuzz"
cp "$root"/Tests/MemprofFieldTests/Fixtures/*.ips "$root"/Tests/MemprofFieldTests/Fixtures/corpus/*.ips \
   "$root"/Tests/MemprofFieldTests/Fixtures/corpus/*.txt "$out/corpus/"
# Seeds the reader must refuse or keep as plain strings: a key twice, a line break and YAML in a
# value, a LowMemory row with brackets in its name.
printf '%s\n%s\n' '{"bug_type":"298","bug_type":"298"}' '{"memoryStatus":{"pageSize":16384},"processes":[]}' > "$out/corpus/seed-duplicate-header"
printf '%s\n%s\n' '{"bug_type":"298","os_version":"x\nseed: 42 #"}' \
    '{"memoryStatus":{"pageSize":16384,"pageSize":4096},"processes":[{"name":"a\"\\\u2028: [b]","rpages":1,"rpages":2}]}' \
    > "$out/corpus/seed-duplicate-body"
printf 'Incident Identifier: x\nOS Version: iPhone OS 7.0 (x\nseed: 1)\nFree pages: 1\nActive pages: 1\nWired pages: 1\nFree pages: 2\n\nProcesses\n Name <UUID> rpages recent_max fds [reason] (state)\n\n a [b] (c) <0123456789abcdef0123456789abcdef> 1 1 1 [vm-pageshortage] (frontmost)\n' \
    > "$out/corpus/seed-lowmemory-hostile"
"$out/ips-fuzz" -runs="$runs" -max_len=65536 -timeout=10 "$out/corpus"
