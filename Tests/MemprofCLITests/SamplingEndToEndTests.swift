import Foundation
import MemprofReport
import MemprofReportReader
import MemprofTestSupport
import Testing

/// A workload whose background task runs real work (spec §8).
func workWorkload(kernel: String, size: String) -> String {
    """
    memprof: 1
    name: sampled
    duration: 10m
    apps:
      mail:
        launch: {footprint: 45MB}
        backgroundTask: {time: 3m, work: {kernel: \(kernel), size: \(size)}}
      notes:
        launch: {footprint: 20MB}
    script:
      - {at: 0s, open: mail}
      - {at: 1m, open: notes}
    """
}

@Suite(.serialized) struct SamplingEndToEndTests {
    @Test func workIsSampledIntoTheReportAndStackFiles() throws {
        let dir = try Scratch.makeDirectory("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        try workWorkload(kernel: "checksum", size: "48MB")
            .write(to: dir.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
        let outcome = try ProcessRunner.memprof(["run", "w.yaml", "--sample-rate", "1000"], in: dir)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("profile    "))
        let files = Scratch.listing(dir.appendingPathComponent("Reports/sampled"))
        #expect(files.contains("stacks.folded"))
        #expect(files.contains("profile.speedscope.json"))
        let report = try ReportJSON.decode(try Data(contentsOf: dir.appendingPathComponent("Reports/sampled/report.json")))
        let profile = try #require(report.profile)
        #expect(profile.sampler.requestedRateHz == 1000)
        let handler = try #require(profile.handlers.first)
        #expect(handler.app == "mail")
        #expect(handler.handler == "backgroundTask")
        #expect(handler.kernel == "checksum")
        #expect(handler.samples > 0)
        let folded = try String(contentsOf: dir.appendingPathComponent("Reports/sampled/stacks.folded"), encoding: .utf8)
        #expect(folded.split(separator: "\n").allSatisfy { $0.hasPrefix("mail;backgroundTask;") })
        #expect(folded.contains("ChecksumKernel"))
    }

    @Test func noSamplingWritesNoStacks() throws {
        let dir = try Scratch.makeDirectory("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        try workWorkload(kernel: "checksum", size: "16MB")
            .write(to: dir.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
        let outcome = try ProcessRunner.memprof(["run", "w.yaml", "--no-sampling"], in: dir)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("work ran unsampled"))
        let files = Scratch.listing(dir.appendingPathComponent("Reports/sampled"))
        #expect(!files.contains("stacks.folded"))
        let report = try ReportJSON.decode(try Data(contentsOf: dir.appendingPathComponent("Reports/sampled/report.json")))
        #expect(report.profile?.sampleCount == 0)
        // The kernel's allocations are tracked without sampling: their files only, no CPU profile.
        #expect(files.contains("allocated-bytes.folded") == (report.profile?.hasAllocations == true))
        if files.contains("profile.speedscope.json") {
            let data = try Data(contentsOf: dir.appendingPathComponent("Reports/sampled/profile.speedscope.json"))
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let profiles = try #require(object["profiles"] as? [[String: Any]])
            let cpu = profiles.filter { ($0["name"] as? String)?.hasSuffix("(checksum)") == true }
            #expect(cpu.allSatisfy { ($0["samples"] as? [Any])?.isEmpty == true }, "no CPU samples without sampling")
        }
    }

    @Test func workTooShortToSampleSaysSoInsteadOfWritingEmptyFiles() throws {
        let dir = try Scratch.makeDirectory("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        try workWorkload(kernel: "sort", size: "1B")
            .write(to: dir.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
        let outcome = try ProcessRunner.memprof(["run", "w.yaml", "--sample-rate", "1"], in: dir)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("no samples were collected"))
        #expect(!Scratch.listing(dir.appendingPathComponent("Reports/sampled")).contains("stacks.folded"))
    }

    @Test func unknownKernelIsBadInputWithASuggestion() throws {
        let dir = try Scratch.makeDirectory("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        try workWorkload(kernel: "chekcsum", size: "1MB")
            .write(to: dir.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
        let outcome = try ProcessRunner.memprof(["run", "w.yaml"], in: dir)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("w.yaml:7:47: apps.mail.backgroundTask.work.kernel: unknown work kernel 'chekcsum' (did you mean 'checksum'?)"))
        #expect(Scratch.listing(dir) == ["w.yaml"])
    }

    @Test func badSampleRatesAreBadInput() throws {
        let dir = try Scratch.makeDirectory("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try ProcessRunner.memprof(["run", "--sample-rate", "0"], in: dir).status == 2)
        #expect(try ProcessRunner.memprof(["run", "--sample-rate", "500", "--no-sampling"], in: dir).status == 2)
        #expect(Scratch.listing(dir).isEmpty)
    }
}
