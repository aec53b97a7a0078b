import Foundation
import MemprofInput
import MemprofWorkload
import Testing
@testable import MemprofFleet

/// Fuzzing the readers a sweep adds (sweep files, `--set`, runs.csv, fleet.json): seeded
/// mutations of valid inputs (bytes flipped, cut, repeated, spliced) must end in a value or in
/// the reader's own error, never in a crash or another kind of failure.
struct FleetFuzzTests {
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func mutations(of text: String, count: Int, seed: UInt64) -> [[UInt8]] {
        var g = Generator(state: seed)
        let base = Array(text.utf8)
        let alphabet = Array("0123456789.:-[]{},\n #'\"xyzMBGs/\\\u{0}".utf8)
        return (0..<count).map { _ in
            var bytes = base
            for _ in 0..<Int.random(in: 1...4, using: &g) {
                guard !bytes.isEmpty else { break }
                let i = Int.random(in: 0..<bytes.count, using: &g)
                switch Int.random(in: 0..<5, using: &g) {
                case 0: bytes[i] = alphabet.randomElement(using: &g)!
                case 1: bytes.removeSubrange(i..<min(bytes.count, i + Int.random(in: 1...8, using: &g)))
                case 2: bytes.insert(contentsOf: bytes[i..<min(bytes.count, i + 12)], at: i)
                case 3: bytes = Array(bytes[..<i])
                default: bytes.insert(alphabet.randomElement(using: &g)!, at: i)
                }
            }
            return bytes
        }
    }

    @Test func sweepFiles() {
        for bytes in Self.mutations(of: FleetFixtures.sweep(), count: 3000, seed: 1) {
            do { _ = try SweepFile.parse(String(decoding: bytes, as: UTF8.self), file: "fuzz.yaml") } catch is WorkloadError {
            } catch { Issue.record("unexpected \(type(of: error)): \(error)") }
        }
    }

    @Test func assignmentsAppliedToAWorkload() {
        for bytes in Self.mutations(of: "apps.mail.launch.footprint=60MB", count: 1500, seed: 2) {
            do {
                let o = try WorkloadOverride.parse(assignment: String(decoding: bytes, as: UTF8.self))
                _ = try WorkloadParser(file: "tiny.yaml").parse(FleetFixtures.workload, overrides: [o])
            } catch is WorkloadError {
            } catch { Issue.record("unexpected \(type(of: error)): \(error)") }
        }
    }

    @Test func runsTables() {
        let csv = "run,cell,seed,summary.a,summary.b\n0,0,1,5,7\n1,0,2,,9\n2,1,1,-3,0\n"
        for bytes in Self.mutations(of: csv, count: 3000, seed: 3) {
            do { _ = try RunsCSV.read(bytes) } catch is RunsCSV.ReadError {
            } catch { Issue.record("unexpected \(type(of: error)): \(error)") }
        }
    }

    @Test func fleetFilesGivenToMerge() throws {
        let dir = try FleetFixtures.folder(sweep: FleetFixtures.sweep(seeds: "1..2", matrix: ""))
        defer { try? FileManager.default.removeItem(at: dir) }
        let part = dir.appendingPathComponent("p")
        _ = try FleetSweep.run(try FleetFixtures.plan(dir, shard: .init(index: 1, count: 2)), threads: 1, into: part)
        let json = try String(contentsOf: part.appendingPathComponent("fleet.json"), encoding: .utf8)
        for (i, bytes) in Self.mutations(of: json, count: 300, seed: 4).enumerated() {
            try Data(bytes).write(to: part.appendingPathComponent("fleet.json"))
            do { _ = try FleetMerge.merge([part.path], into: dir.appendingPathComponent("m\(i % 3)"), partial: true) }
            catch is MergeError {} catch { Issue.record("unexpected \(type(of: error)): \(error)") }
        }
    }
}
