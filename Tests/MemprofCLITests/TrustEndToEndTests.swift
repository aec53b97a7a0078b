import Foundation
import MemprofTestSupport
import Testing

/// Trust in what memprof reads and writes, through the built binary.
@Suite(.serialized) struct TrustEndToEndTests {
    /// `validate` and `run` load workloads the same way: a kernel this build does not have is
    /// refused by both, at the same place.
    @Test func validateAndRunRefuseTheSameUnknownKernel() throws {
        let dir = try Scratch.makeDirectory("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        try """
            memprof: 1
            name: upload
            duration: 10m
            device: iphone-6-plus
            apps:
              mail:
                launch: {footprint: 40MB}
                modes: [fetch]
                fetch: {interval: 2m, time: 1s, work: {kernel: upload}}
            script:
              - {at: 0s, open: mail}
              - {at: 1m, home: true}
            """.write(to: dir.appendingPathComponent("upload.yaml"), atomically: true, encoding: .utf8)
        let validate = try ProcessRunner.memprof(["validate", "upload.yaml"], in: dir)
        let run = try ProcessRunner.memprof(["run", "upload.yaml"], in: dir)
        #expect(validate.status == 2 && run.status == 2)
        #expect(validate.stderr.contains("upload.yaml:9:"), "\(validate.stderr)")
        #expect(validate.stderr == run.stderr)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("Reports").path))
    }

    /// Binary output is refused on a terminal, as gzip does (`script` gives the child a terminal).
    @Test func pprofIsNotWrittenToATerminal() throws {
        let dir = try Scratch.makeDirectory("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try ProcessRunner.memprof(["run", "background-heavy", "--out", "r"], in: dir).status == 0)
        let command = "'\(Repository.memprofBinary.path)' export r --format pprof"
        let onTerminal = try ProcessRunner.run(command: "script", ["-qec", command, "/dev/null"], in: dir)
        #expect(onTerminal.status == 2, "\(onTerminal.output)")
        #expect(onTerminal.stdout.contains("refusing to write it to a terminal"))
        let toFile = try ProcessRunner.memprof(["export", "r", "--format", "pprof", "-o", "p.pb.gz"], in: dir)
        #expect(toFile.status == 0, "\(toFile.stderr)")
    }

    /// A long run shows it is alive in a CI log: progress lines paced by wall time.
    @Test func progressReachesLogsThatAreNotTerminals() throws {
        let dir = try Scratch.makeDirectory("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let quiet = try ProcessRunner.memprof(["run", "ipad-afternoon", "--out", "a"], in: dir)
        #expect(!quiet.stderr.contains("simulating"))
        let paced = try ProcessRunner.memprof(["run", "ipad-afternoon", "--out", "b"], in: dir,
                                              environment: ["MEMPROF_PROGRESS_SECONDS": "0"])
        #expect(paced.status == 0)
        #expect(paced.stderr.contains("memprof: simulating "), "\(paced.stderr)")
    }

    /// Counts read as English, and `list devices` is a table whose columns line up.
    @Test func countsAgreeWithTheirNounsAndListsAlign() throws {
        let dir = try Scratch.makeDirectory("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let devices = try ProcessRunner.memprof(["list", "devices"], in: dir).stdout
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init).prefix { !$0.isEmpty }
        let header = try #require(devices.first)
        #expect(header.hasPrefix("device "))
        // Right-aligned: every row's RAM value ends where the header's "RAM" ends.
        let ramEnd = try #require(header.range(of: "RAM")).upperBound.utf16Offset(in: header)
        for row in devices.dropFirst() {
            let upToColumn = String(row.utf8.prefix(ramEnd)) ?? ""
            #expect(upToColumn.hasSuffix("GB") || upToColumn.hasSuffix("MB"), "\(row)")
        }
        let run = try ProcessRunner.memprof(["run", "ipad-afternoon", "--out", "r"], in: dir)
        #expect(!run.stdout.contains(" 1 compressions") && !run.stdout.contains(" 1 evictions") && !run.stdout.contains(" 1 warnings"))
    }

    /// `export --format benchmark`: what github-action-benchmark's customSmallerIsBetter reads.
    @Test func benchmarkExportIsAnArrayOfNameUnitValue() throws {
        let dir = try Scratch.makeDirectory("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try ProcessRunner.memprof(["run", "phone-day", "--out", "r", "--no-sampling"], in: dir).status == 0)
        let out = try ProcessRunner.memprof(["export", "r", "--format", "benchmark"], in: dir)
        #expect(out.status == 0, "\(out.stderr)")
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]])
        let evictions = try #require(entries.first { $0["name"] as? String == "phone-day summary.evictions" })
        #expect(evictions["unit"] as? String == "count")
        #expect(evictions["value"] as? Double == 5)
        #expect(entries.allSatisfy { Set($0.keys) == ["name", "unit", "value"] })
        #expect(!entries.contains { ($0["name"] as? String)?.hasSuffix(".completed") == true })
    }
}
