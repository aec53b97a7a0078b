import Foundation
import MemprofCore
import MemprofReport
import MemprofReportReader
import MemprofWorkload
import MemprofTestSupport
import Testing
@testable import MemprofTrace


@Suite struct TraceTests {
    func events(_ workload: String) throws -> (Report, [[String: Any]]) {
        let report = try ReportFixture.builtin(workload)
        let data = try TraceJSON.encode(report)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let events = try #require(object["traceEvents"] as? [[String: Any]])
        return (report, events)
    }

    @Test(arguments: ["phone-day", "background-heavy", "ipad-afternoon"])
    func followsTheTraceEventRules(workload: String) throws {
        let (report, events) = try events(workload)
        #expect(!events.isEmpty)
        var lastTs: [String: Double] = [:]
        var processNames: [Int: String] = [:]
        for event in events {
            let ph = try #require(event["ph"] as? String)
            let ts = try #require((event["ts"] as? NSNumber)?.doubleValue)
            let pid = try #require(event["pid"] as? Int)
            let tid = try #require(event["tid"] as? Int)
            #expect(event["name"] is String)
            switch ph {
            case "X":
                let dur = try #require((event["dur"] as? NSNumber)?.doubleValue, "X without dur: \(event)")
                #expect(dur >= 0)
            case "C":
                let args = try #require(event["args"] as? [String: Any])
                #expect(!args.isEmpty)
                for (_, value) in args {
                    #expect(value is NSNumber && !(value is String), "counter arg not numeric: \(event)")
                }
            case "i":
                let args = try #require(event["args"] as? [String: Any])
                if ["eviction", "kill", "compression", "memoryWarning"].contains(event["name"] as? String) {
                    #expect(args["reason"] is String, "instant without reason: \(event)")
                }
            case "M":
                if event["name"] as? String == "process_name" {
                    processNames[pid] = (event["args"] as? [String: Any])?["name"] as? String
                }
            default:
                Issue.record("unexpected phase \(ph)")
            }
            // ts never decreases on a track (a pid/tid pair).
            let track = "\(pid)/\(tid)"
            if let last = lastTs[track] { #expect(ts >= last, "ts went back on \(track)") }
            lastTs[track] = ts
        }
        // A process per app, named, plus the device.
        #expect(processNames.count == report.apps.count + 1)
        for app in report.apps.values { #expect(processNames.values.contains(app.name)) }
    }

    /// The in-RAM compressor's pool is a device counter, `compressor pool`, point for point the
    /// report's `timeline.compressorBytes`; a run without the compressor has no such counter.
    @Test func thePoolIsACounterOfTheDevice() throws {
        let (report, events) = try events("phone-day-2026")
        let series = try #require(report.timeline.compressorBytes)
        let pool = events.filter { $0["ph"] as? String == "C" && $0["name"] as? String == "compressor pool" }
        #expect(pool.allSatisfy { $0["pid"] as? Int == Int(TraceJSON.devicePid) })
        let points = pool.map { [($0["ts"] as? NSNumber)?.int64Value ?? -1,
                                 (($0["args"] as? [String: Any])?["bytes"] as? NSNumber)?.int64Value ?? -1] }
        #expect(points == series)
        #expect(series.count > 100 && points.map { $0[1] }.max() == report.summary.compressor?.peakBytes)
        let (_, old) = try self.events("phone-day")
        #expect(!old.contains { $0["name"] as? String == "compressor pool" })
    }

    /// A process that is not an app, killed under `xnu`, is an instant of the device, `process
    /// kill`, with the reason, the process's key, its kind and band and what it held: one per
    /// `processExit` event of the report.
    @Test func processKillsAreInstantsOfTheDevice() throws {
        let dir = try Scratch.makeDirectory("trace-processes")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("processes.yaml")
        try WorkloadFixtures.processes.write(to: file, atomically: true, encoding: .utf8)
        let report = try ReportFixture.builtin(file.path)
        let exits = report.events.compactMap { e -> [String]? in
            guard case .processExit(let reason, _, _, let bytes) = e.payload else { return nil }
            return ["\(e.atUs)", reason.rawValue, e.app ?? "", e.fields.detail ?? "", "\(bytes)"]
        }
        #expect(exits.map { $0[1] }.contains("highwater"), "the workload kills a process for highwater: \(exits)")
        let object = try #require(try JSONSerialization.jsonObject(with: try TraceJSON.encode(report)) as? [String: Any])
        let instants = try #require(object["traceEvents"] as? [[String: Any]]).filter { $0["name"] as? String == "process kill" }
        #expect(instants.allSatisfy { $0["ph"] as? String == "i" && $0["pid"] as? Int == Int(TraceJSON.devicePid) })
        let drawn = instants.map { i -> [String] in
            let args = i["args"] as? [String: Any] ?? [:]
            return ["\((i["ts"] as? NSNumber)?.int64Value ?? -1)", args["reason"] as? String ?? "", args["process"] as? String ?? "",
                    args["detail"] as? String ?? "", "\((args["bytes"] as? NSNumber)?.int64Value ?? -1)"]
        }
        #expect(drawn == exits)
        let (_, seed) = try events("phone-day")
        #expect(!seed.contains { $0["name"] as? String == "process kill" })
    }

    @Test func lifecycleSlicesCoverTheRunningTime() throws {
        let (report, events) = try events("phone-day")
        let pids = report.apps.keys.sorted()
        for (index, key) in pids.enumerated() {
            let pid = index + 2
            let slices = events.filter { $0["ph"] as? String == "X" && $0["pid"] as? Int == pid && $0["tid"] as? Int == 1 }
            let total = slices.reduce(Int64(0)) { $0 + ((($1["dur"] as? NSNumber)?.int64Value) ?? 0) }
            let notRunning = report.apps[key]!.timeInStateUs[AppState.notRunning.rawValue] ?? 0
            #expect(total == report.run.durationUs - notRunning, "\(key)")
        }
    }

    @Test func instantsCarryReasons() throws {
        let (_, events) = try events("background-heavy")
        let kills = events.filter { $0["ph"] as? String == "i" && $0["name"] as? String == "kill" }
        #expect(!kills.isEmpty)
        let reasons = Set(kills.compactMap { ($0["args"] as? [String: Any])?["reason"] as? String })
        #expect(reasons.contains("memoryPressure"))
    }

    /// `memprof export --format trace report.json` against the trace.json `memprof run` wrote: the
    /// run draws the engine's intervals, the export rebuilds them from report.json's transitions
    /// and their `cause`s; for every built-in workload the two files are the same bytes.
    @Test(arguments: BuiltinWorkloads.all.map(\.name))
    func exportFromReportJSONIsTheRunsTraceJSON(workload: String) throws {
        let report = try ReportFixture.builtin(workload)
        #expect(report.stateIntervals != nil)
        let readBack = try ReportJSON.decode(ReportJSON.encode(report))
        #expect(readBack.stateIntervals == nil)
        let runTrace = try TraceJSON.encode(report)
        let exported = try TraceJSON.encode(readBack)
        #expect(exported == runTrace, "\(workload)")
        let object = try #require(try JSONSerialization.jsonObject(with: exported) as? [String: Any])
        let slices = try #require(object["traceEvents"] as? [[String: Any]])
            .filter { $0["ph"] as? String == "X" && $0["tid"] as? Int == Int(TraceJSON.lifecycleTid) }
        #expect(slices.contains { ($0["args"] as? [String: Any])?["cause"] is String }, "\(workload)")
    }

    @Test func isDeterministic() throws {
        let report = try ReportFixture.builtin("ipad-afternoon")
        #expect(try TraceJSON.encode(report) == TraceJSON.encode(report))
    }
}
