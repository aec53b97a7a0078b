#!/usr/bin/env bash
# Benchmarks the simulator and report.json writer in release mode on a generated workload
# (100 apps, 24 h, a switch every ~30 s, fetches and pushes). Prints the figures the README quotes.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
./scripts/setup.sh
swift build -c release --product memprof-bench >&2
echo "machine             $(lscpu | sed -n 's/^Model name: *//p') ($(nproc) cores), $(swift --version 2>&1 | head -1)"
./.build/release/memprof-bench
