import Foundation
import MemprofCore
import MemprofWorkload
import MemprofTestSupport
import Testing
@testable import MemprofReport
@testable import MemprofReportReader

@Suite struct ReportJSONTests {
    @Test(arguments: BuiltinWorkloads.all.map(\.name))
    func sameWorkloadAndSeedGiveIdenticalBytes(name: String) throws {
        let a = try ReportJSON.encode(try ReportFixture.builtin(name))
        let b = try ReportJSON.encode(try ReportFixture.builtin(name))
        #expect(a == b)
        #expect(a.count > 10_000)
    }

    @Test func anotherSeedGivesAnotherRun() throws {
        // phone-day has a `generate` section, so its seed matters.
        let a = try ReportJSON.encode(try ReportFixture.builtin("phone-day", seed: 1))
        let b = try ReportJSON.encode(try ReportFixture.builtin("phone-day", seed: 2))
        #expect(a != b)
    }

    @Test func topLevelKeysAreTheSpecsAndSorted() throws {
        let data = try ReportJSON.encode(try ReportFixture.builtin("background-heavy"))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == ["schema", "tool", "run", "device", "policy", "summary", "apps", "events",
                                     "timeline", "jetsamEvents", "notifications", "host"])
        #expect(object["schema"] as? String == "memprof.report/1")
        let text = String(decoding: data, as: UTF8.self)
        let positions = ["\"apps\"", "\"device\"", "\"events\"", "\"host\"", "\"jetsamEvents\"", "\"notifications\"",
                         "\"policy\"", "\"run\"", "\"schema\"", "\"summary\"", "\"timeline\"", "\"tool\""]
            .map { text.range(of: "{" + $0)?.lowerBound ?? text.range(of: "," + $0 + ":")!.lowerBound }
        #expect(positions == positions.sorted())
    }

    @Test func summaryHasEverySpecKey() throws {
        let data = try ReportJSON.encode(try ReportFixture.builtin("background-heavy"))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let summary = try #require(object["summary"] as? [String: Any])
        for key in ["coldLaunches", "backgroundLaunches", "warmResumes", "compressedResumes", "compressions",
                    "evictions", "memoryWarnings", "terminations", "backgroundTasks", "fetches", "pushes",
                    "peakUsedBytes", "peakCompressedBytes", "timeAtPressureUs"] {
            #expect(summary[key] != nil, "summary.\(key) missing")
        }
        let apps = try #require(object["apps"] as? [String: [String: Any]])
        for (_, app) in apps {
            for key in ["timeInStateUs", "launches", "exits", "compressions", "evictions", "memoryWarnings",
                        "peakFootprintBytes", "resumeLatencyUs", "backgroundTasks", "fetches", "pushes"] {
                #expect(app[key] != nil, "apps.*.\(key) missing")
            }
        }
    }

    @Test func roundTripsThroughTheReader() throws {
        let report = try ReportFixture.builtin("ipad-afternoon")
        let decoded = try ReportJSON.decode(try ReportJSON.encode(report))
        #expect(decoded.summary == report.summary)
        #expect(decoded.events == report.events)
        #expect(decoded.run == report.run)
    }

    @Test func readerRefusesOtherSchemasAndNonReports() {
        #expect(throws: ReportReadError.unknownSchema("memprof.report/9")) {
            try ReportJSON.decode(Data(#"{"schema": "memprof.report/9"}"#.utf8))
        }
        #expect(throws: ReportReadError.self) { try ReportJSON.decode(Data("[1, 2]".utf8)) }
        #expect(throws: ReportReadError.self) { try ReportJSON.decode(Data(#"{"name": "x"}"#.utf8)) }
    }

    @Test func jetsamEventsHaveTheShapeOfIOSReports() throws {
        let report = try ReportFixture.builtin("background-heavy")
        let event = try #require(report.jetsamEvents.first)
        // background-heavy runs on the iPhone 6 Plus, whose A8 has 4 KB pages.
        #expect(event.pageSize == 4096)
        let killed = try #require(event.processes.first { $0.reason != nil })
        #expect(event.processes.allSatisfy { $0.pid != nil && $0.priority != nil })
        #expect(!event.processes.flatMap(\.states).contains { $0 == "background" || $0 == "inactive" })
        #expect(killed.name == event.killed)
        #expect(["vm-pageshortage", "per-process-limit"].contains(killed.reason ?? ""))
        #expect(event.largestProcess == event.processes.max { $0.rpages < $1.rpages }?.name)
    }
}

@Suite struct FormatTests {
    @Test func bytes() {
        #expect(Format.bytes(45 * 1_048_576) == "45 MB")
        #expect(Format.bytes(1_610_612_736) == "1.5 GB")
        #expect(Format.bytes(512) == "512 B")
        #expect(Format.bytes(300 * 1_048_576) == "300 MB")
    }

    @Test func durations() {
        #expect(Format.duration(90_000_000) == "1m30s")
        #expect(Format.duration(3_600_000_000) == "1h")
        #expect(Format.duration(250_000) == "250ms")
        #expect(Format.duration(1_500_000) == "1.5s")
        #expect(Format.duration(0) == "0s")
    }
}

@Suite struct FastJSONTests {
    @Test(arguments: BuiltinWorkloads.all.map(\.name))
    func handWrittenSectionsMatchJSONEncoder(name: String) throws {
        let report = try ReportFixture.builtin(name)
        let fast = try ReportJSON.encode(report)
        let reference = try ReportJSON.referenceEncode(report)
        #expect(fast == reference)
    }

    @Test func stringsAreEscapedAsJSONEncoderDoes() throws {
        var report = try ReportFixture.builtin("background-heavy")
        let text = "quote \" backslash \\ slash / newline \n tab \t bell \u{07} é 漢"
        report.events[0] = SimEvent(atUs: 0, app: text, .ignored(action: text, reason: .noObjectShown(text)))
        #expect(try ReportJSON.encode(report) == (try ReportJSON.referenceEncode(report)))
    }
}

@Suite struct EventRoundTripTests {
    /// Every event of every built-in run reads back from report.json as the same typed event.
    @Test(arguments: BuiltinWorkloads.all.map(\.name))
    func eventsReadBackFromReportJSON(name: String) throws {
        let report = try ReportFixture.builtin(name)
        let decoded = try ReportJSON.decode(try ReportJSON.encode(report))
        #expect(decoded.events == report.events)
    }

    @Test func aWrongWordNamesTheEventAndKey() throws {
        var text = String(decoding: try ReportJSON.encode(try ReportFixture.builtin("background-heavy")), as: UTF8.self)
        let range = try #require(text.range(of: #""detail":"cold""#))
        text.replaceSubrange(range, with: #""detail":"lukewarm""#)
        let error = #expect(throws: ReportReadError.self) { try ReportJSON.decode(Data(text.utf8)) }
        #expect("\(error!)".contains(".detail: 'lukewarm' is not a detail of a launch event"))
        text = text.replacing(#""detail":"lukewarm""#, with: #""detail":"cold""#)
        let cause = try #require(text.range(of: #""cause":"launch cold""#))
        text.replaceSubrange(cause, with: #""cause":"launch lukewarm""#)
        let causeError = #expect(throws: ReportReadError.self) { try ReportJSON.decode(Data(text.utf8)) }
        #expect("\(causeError!)".contains(".cause: 'launch lukewarm' is not a cause of a transition event"))
    }
}

@Suite struct LifecycleTests {
    /// The engine's intervals and those rebuilt from report.json's transitions and their `cause`s
    /// are the same: states, bounds and causes.
    @Test(arguments: BuiltinWorkloads.all.map(\.name))
    func runsIntervalsMatchTheirTransitions(name: String) throws {
        let report = try ReportFixture.builtin(name)
        let apps = report.apps.keys.sorted()
        let run = try #require(report.stateIntervals)
        let decoded = try ReportJSON.decode(try ReportJSON.encode(report))
        #expect(decoded.stateIntervals == nil)
        let rebuilt = decoded.lifecycle(apps: apps)
        for app in apps {
            #expect(rebuilt[app] == run[app], "\(app)")
            #expect(report.lifecycle(apps: apps)[app] == run[app])
        }
        #expect(run.values.joined().contains { $0.cause != nil })
    }

    /// A report.json written before transitions carried a `cause` still reads: the same intervals,
    /// without causes.
    @Test func reportsWithoutCausesStillRead() throws {
        let report = try ReportFixture.builtin("phone-day")
        let apps = report.apps.keys.sorted()
        let text = String(decoding: try ReportJSON.encode(report), as: UTF8.self)
        let old = text.replacing(/"cause":"[^"]*",/, with: "")
        #expect(old.count < text.count && !old.contains(#""cause""#))
        let decoded = try ReportJSON.decode(Data(old.utf8))
        let rebuilt = decoded.lifecycle(apps: apps)
        let run = try #require(report.stateIntervals)
        for app in apps {
            let withoutCauses = (run[app] ?? []).map { StateInterval(startUs: $0.startUs, endUs: $0.endUs, state: $0.state) }
            #expect(rebuilt[app] == withoutCauses, "\(app)")
        }
    }
}
