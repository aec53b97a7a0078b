#!/usr/bin/env bash
# Reading a large workload, side by side in one process (release mode): through memprof's one
# composer (libyaml's events into a `YAMLTree`, read by the node reader into a validated
# `Workload`: what `memprof validate`, `run` and `sweep` do), the same with an override (`--set`:
# the tree edited into a changed copy, then read), and Yams' public composer (`Yams.compose` into
# its node tree with marks) alone, which memprof does not use. The workload is the one
# scripts/bench.sh reads: 50 apps over 450 hours with 100,000 scripted switches
# (scripts/gen-workload.py). Wall time and the reading thread's CPU time, the best of each over
# the rounds.
#   scripts/bench-yaml.sh [ROUNDS]     (default 5; the best round of each is printed)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rounds="${1:-5}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/harness/Sources/yaml-bench"
cat >"$work/harness/Package.swift" <<SWIFT
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
    name: "yaml-bench",
    dependencies: [
        .package(path: "$root", traits: []),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        .executableTarget(name: "yaml-bench", dependencies: [
            .product(name: "MemprofInput", package: "$(basename "$root")"),
            .product(name: "MemprofWorkload", package: "$(basename "$root")"),
            .product(name: "Yams", package: "Yams"),
        ]),
    ]
)
SWIFT
cat >"$work/harness/Sources/yaml-bench/main.swift" <<'SWIFT'
import Dispatch
import Glibc
import MemprofInput
import MemprofWorkload
import Yams

let path = CommandLine.arguments[1]
let rounds = Int(CommandLine.arguments[2]) ?? 5
let text = try InputText.read(path)
// An override that leaves the workload as it is (the generated file is named `big`): the tree is
// edited (its root and the new `name` are new entries) and read.
let unchanged = try WorkloadOverride.parse(assignment: "name=big")

/// Wall and CPU time (this thread's: what a loaded machine does not inflate) of `body`.
func measure(_ body: () throws -> Void) rethrows -> (wall: Double, cpu: Double) {
    func cpuNow() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
    let wall = DispatchTime.now().uptimeNanoseconds, cpu = cpuNow()
    try body()
    return (Double(DispatchTime.now().uptimeNanoseconds - wall) / 1e9, cpuNow() - cpu)
}

/// The best wall and the best CPU time among the rounds.
struct Best {
    var wall = Double.infinity, cpu = Double.infinity
    mutating func add(_ m: (wall: Double, cpu: Double)) { (wall, cpu) = (min(wall, m.wall), min(cpu, m.cpu)) }
}

var tree = Best(), edited = Best(), compose = Best()
var plain = 0, overridden = 0
for _ in 0..<rounds {
    tree.add(try measure { plain = try WorkloadLoader.parse(text, file: path).workload.script.count })
    edited.add(try measure { overridden = try WorkloadLoader.parse(text, file: path, overrides: [unchanged]).workload.script.count })
    compose.add(try measure { _ = try Yams.compose(yaml: text, .basic) })
}
precondition(plain == overridden && plain > 0, "both reads give the same script")
let mb = Double(text.utf8.count) / 1_048_576
func figure(_ s: Double) -> String { "\(Int((s * 1000).rounded())) ms (\((mb / s * 10).rounded() / 10) MB/s)" }
func line(_ what: String, _ b: Best) -> String {
    what.padding(toLength: 46, withPad: " ", startingAt: 0) + "wall " + figure(b.wall) + ", CPU " + figure(b.cpu)
}
print(line("YAMLTree composer + workload parser", tree))
print(line("the same with an override (--set)", edited))
print(line("Yams.compose alone (not used)", compose))
print("Yams.compose alone / YAMLTree + parser: \((compose.wall / tree.wall * 100).rounded() / 100)x the wall time, "
      + "\((compose.cpu / tree.cpu * 100).rounded() / 100)x the CPU time")
SWIFT
echo "machine  $(lscpu | sed -n 's/^Model name: *//p') ($(nproc) cores), $(swift --version 2>&1 | head -1)"
echo "load     $(cut -d' ' -f1-3 /proc/loadavg)"
python3 "$root/scripts/gen-workload.py" --apps 50 --hours 450 --switches 100000 --name big >"$work/big.yaml"
echo "workload $(awk -v b="$(stat -c %s "$work/big.yaml")" 'BEGIN { printf "%.2f MB", b / 1048576 }') of YAML, 50 apps, 450 hours, 100,000 switches; best of $rounds rounds"
swift build -c release --package-path "$work/harness" --product yaml-bench >&2
"$work/harness/.build/release/yaml-bench" "$work/big.yaml" "$rounds"
