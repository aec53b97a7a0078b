import Foundation
import MemprofCore
import MemprofTestSupport
import Testing
@testable import MemprofWorkload

/// An app's memory stated as MetricKit reports it (`averageSuspendedMemory`, `peakMemoryUsage`):
/// what memprof derives from it, and every statement that cannot hold refused with file, line,
/// column and key path.
@Suite struct MetricKitMemoryKeysTests {
    /// `minimal`'s safari with its launch line replaced by `lines` (each on its own line).
    static func safari(_ lines: String) -> String {
        minimal.replacingOccurrences(of: "    launch: {footprint: 150MB}\n", with: lines.split(separator: "\n").map { "    \($0)\n" }.joined())
    }

    @Test func theNewsReaderStatesItsSuspendedAndPeakMemory() throws {
        let url = Repository.root.appendingPathComponent("scripts/examples/news-reader.yaml")
        let w = try WorkloadParser(file: url.path).parse(try String(contentsOf: url, encoding: .utf8))
        let news = try #require(w.apps.first { $0.id == "news" })
        #expect(news.suspendedFootprint == 180 * .megabyte)
        #expect(news.maxFootprint == 420 * .megabyte && news.launchFootprint == 260 * .megabyte)
        #expect(news.backgroundRelease == 0)
        #expect(w.device.osVersion == "iOS 18.5 (22F76)")
    }

    @Test func aPeakAloneIsTheLaunchFootprintAndTheCap() throws {
        let w = try parse(Self.safari("peakMemoryUsage: 300MB\naverageSuspendedMemory: 90MB"))
        let s = try #require(w.apps.first { $0.id == "safari" })
        #expect(s.launchFootprint == 300 * .megabyte && s.maxFootprint == 300 * .megabyte)
        #expect(s.suspendedFootprint == 90 * .megabyte)
    }

    @Test func statementsThatCannotHoldAreLocated() {
        #expect(error(of: Self.safari("peakMemoryUsage: 300MB\nmaxFootprint: 320MB"))?.description
            == "commute.yaml:14:19: apps.safari.maxFootprint: peakMemoryUsage states the cap maxFootprint would "
            + "(the most the app holds in the foreground); give one of the two")
        #expect(error(of: Self.safari("peakMemoryUsage: 300MB\nlaunch: {footprint: 350MB}"))?.description
            == "commute.yaml:14:25: apps.safari.launch.footprint: the launch footprint (350 MB) is over peakMemoryUsage (300 MB)")
        #expect(error(of: Self.safari("peakMemoryUsage: 300MB\nlaunch: {footprint: 200MB}"))?.description
            == "commute.yaml:13:22: apps.safari.peakMemoryUsage: safari launches at 200 MB and never grows, so it never "
            + "reaches peakMemoryUsage (300 MB): give it growth, or leave launch.footprint out to launch at the peak")
        #expect(error(of: Self.safari("launch: {footprint: 150MB}\naverageSuspendedMemory: 90MB\nonBackground: {release: 20MB}"))?
            .description == "commute.yaml:15:29: apps.safari.onBackground.release: averageSuspendedMemory states what the app "
            + "releases on leaving the foreground (what it holds above it); give one of the two")
        #expect(error(of: Self.safari("launch: {footprint: 150MB}\nminFootprint: 40MB\naverageSuspendedMemory: 30MB"))?
            .description == "commute.yaml:15:29: apps.safari.averageSuspendedMemory: averageSuspendedMemory (30 MB) is under "
            + "the app's floor of 40 MB (minFootprint)")
        #expect(error(of: Self.safari("launch: {footprint: 150MB}\naverageSuspendedMemory: 200MB"))?
            .description == "commute.yaml:14:29: apps.safari.averageSuspendedMemory: averageSuspendedMemory (200 MB) is more "
            + "than safari ever holds: at most 150 MB (its launch footprint, maxFootprint and largest handler allocation)")
        #expect(error(of: Self.safari("peakMemoryUsage: 0MB"))?.keyPath == "apps.safari.peakMemoryUsage")
    }

    /// One key moves the suspended footprint: nothing else of the app changes with it.
    @Test func aSuspendedFootprintIsOneKeyToSet() throws {
        let url = Repository.root.appendingPathComponent("scripts/examples/news-reader.yaml")
        let text = try String(contentsOf: url, encoding: .utf8)
        let base = try WorkloadParser(file: url.path).parse(text)
        let loaded = try WorkloadLoader.parse(text, file: url.path,
                                              overrides: [WorkloadOverride(keyPath: "apps.news.averageSuspendedMemory", value: "120MB",
                                                                           origin: .init(file: "--set"))])
        var moved = try #require(loaded.workload.apps.first { $0.id == "news" })
        #expect(moved.suspendedFootprint == 120 * .megabyte)
        moved.suspendedFootprint = 180 * .megabyte
        #expect(moved == base.apps.first { $0.id == "news" })
    }
}
