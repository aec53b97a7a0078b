import Foundation
import MemprofTestSupport
import Testing

/// Field formats through the built binary: export --format jetsam and metrickit, import, field,
/// and the errors of each.
@Suite(.serialized) struct FieldEndToEndTests {
    @Test func jetsamExportImportAndRunReproduceTheKill() throws {
        let dir = try Scratch.makeDirectory("field")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try ProcessRunner.memprof(["run", "phone-day-xnu", "--out", "r", "--no-sampling"], in: dir).status == 0)
        let export = try ProcessRunner.memprof(["export", "r", "--format", "jetsam", "-o", "ips"], in: dir)
        #expect(export.status == 0, "\(export.stderr)")
        // One report per moment of memory kills of the run, the first moment's kills in its order.
        func kills(_ path: String) throws -> [(atUs: Int64, killed: String)] {
            let report = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent(path))) as! [String: Any]
            return (report["jetsamEvents"] as! [[String: Any]]).map { (($0["atUs"] as! NSNumber).int64Value, $0["killed"] as! String) }
        }
        let run = try kills("r/report.json")
        let moments = Set(run.map(\.atUs)).count
        #expect(moments == 1, "phone-day-xnu kills at one moment on iOS 8.4.1")
        #expect(export.stderr.contains("\(moments) JetsamEvent report"), "\(export.stderr)")
        let files = Scratch.listing(dir.appendingPathComponent("ips"))
        // phone-day-xnu's iPhone 6 Plus runs iOS 8.4.1: the era of text LowMemory reports.
        #expect(files.count == moments && files.allSatisfy { $0.hasPrefix("LowMemory-2015-01-01-") && $0.hasSuffix(".ips") })
        let first = try String(contentsOf: dir.appendingPathComponent("ips/\(files[0])"), encoding: .utf8)
        #expect(first.hasPrefix("Incident Identifier: "))
        #expect(first.contains("\nOS Version:          iPhone OS 8.4.1 (12H321)\nKernel Version:"))

        let imported = try ProcessRunner.memprof(["import", "ips/\(files[0])", "-o", "w.yaml"], in: dir)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("under xnu it kills"))
        #expect(try ProcessRunner.memprof(["run", "w.yaml", "--out", "w", "--no-sampling"], in: dir).status == 0)
        let firstMoment = run.filter { $0.atUs == run[0].atUs }.map(\.killed)
        #expect(firstMoment == ["maps", "weather", "mail"])
        #expect(try kills("w/report.json").map(\.killed) == firstMoment, "the same kills as the run, in its order")

        let metrickit = try ProcessRunner.memprof(["export", "r", "--format", "metrickit", "-o", "mk.json"], in: dir)
        #expect(metrickit.status == 0)
        let payloads = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("mk.json"))) as! [[String: Any]]
        #expect(payloads.count == 8, "one payload per app of phone-day-xnu")
    }

    /// 600 suspended apps each killed: the replay's report grows by at most 512 processes a kill
    /// (report.json, the page), and reads back for export. The report is of iOS 18.3
    /// (xnu-11215): from iOS 18.4 kills in the idle band take no jetsam snapshot.
    @Test func aReplayOfManyAppsWritesBoundedSnapshots() throws {
        let dir = try Scratch.makeDirectory("field")
        defer { try? FileManager.default.removeItem(at: dir) }
        try JetsamFixtures.suspendedAppsKilled(600).replacingOccurrences(of: "18.5 (22F76)", with: "18.3 (22D63)")
            .write(to: dir.appendingPathComponent("many.ips"), atomically: true, encoding: .utf8)
        let imported = try ProcessRunner.memprof(["import", "many.ips", "-o", "many.yaml"], in: dir)
        #expect(imported.status == 0, "\(imported.stderr)")
        let run = try ProcessRunner.memprof(["run", "many.yaml", "--out", "r", "--no-sampling"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let data = try Data(contentsOf: dir.appendingPathComponent("r/report.json"))
        let report = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        let snapshots = report["jetsamEvents"] as! [[String: Any]]
        #expect(snapshots.count >= 600)
        #expect(snapshots.allSatisfy { ($0["processes"] as! [Any]).count <= 512 })
        let unlisted = snapshots.compactMap { $0["unlisted"] as? [String: Any] }
        #expect(!unlisted.isEmpty && unlisted.allSatisfy { ($0["processes"] as! Int) > 0 && ($0["rpages"] as! Int) > 0 })
        // At most 512 processes of about 100 bytes each per kill (600 apps listed at each of 600
        // kills would be 600 × 600 × 100 bytes).
        #expect(data.count < snapshots.count * 512 * 110 + 4_000_000, "\(data.count) bytes")
        let html = try Data(contentsOf: dir.appendingPathComponent("r/report.html"))
        #expect(html.count < 30_000_000, "\(html.count) bytes")
        #expect(String(decoding: html, as: UTF8.self).contains("smaller processes not listed"))
        let export = try ProcessRunner.memprof(["export", "r", "--format", "jetsam", "-o", "ips"], in: dir)
        #expect(export.status == 0, "\(export.stderr)")
    }

    /// What import writes, run reads: a moment without an app, a name too long for a folder and
    /// a page size no report carries are refused where they are written, with status 2.
    @Test func importAndRunRefuseWhatTheOtherCannotCarry() throws {
        let dir = try Scratch.makeDirectory("field")
        defer { try? FileManager.default.removeItem(at: dir) }
        let daemons = JetsamFixtures.report([JetsamFixtures.Process(name: "kbd", states: ["daemon"], priority: 10, rpages: 100)])
        try daemons.write(to: dir.appendingPathComponent("d.ips"), atomically: true, encoding: .utf8)
        let noApp = try ProcessRunner.memprof(["import", "d.ips", "-o", "d.yaml"], in: dir)
        #expect(noApp.status == 2 && noApp.stderr.contains("d.ips:15:") && noApp.stderr.contains("the report lists no app"),
                "\(noApp.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("d.yaml").path))
        try JetsamFixtures.suspendedAppsKilled(2).write(to: dir.appendingPathComponent("two.ips"), atomically: true, encoding: .utf8)
        let long = try ProcessRunner.memprof(["import", "two.ips", "--name", String(repeating: "a", count: 300)], in: dir)
        #expect(long.status == 2 && long.stderr.contains("--name is 300 characters long"), "\(long.stderr)")
        let name = String(repeating: "b", count: 200)
        let longest = try ProcessRunner.memprof(["import", "two.ips", "--name", name, "-o", "two.yaml"], in: dir)
        #expect(longest.status == 0, "\(longest.stderr)")
        let run = try ProcessRunner.memprof(["run", "two.yaml", "--no-sampling"], in: dir)
        #expect(run.status == 0, "the longest name writes its folder: \(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("Reports/\(name)/report.json").path))
        for size in ["3KB", "2MB", "1GB"] {
            let odd = try ProcessRunner.memprof(["run", "phone-day", "--set", "device.pageSize=\(size)", "--out", "p"], in: dir)
            #expect(odd.status == 2 && odd.stderr.contains("is not a power of two from 512B to 1MB"), "\(odd.stderr)")
        }
    }

    @Test func badInputIsRefusedWithStatusTwo() throws {
        let dir = try Scratch.makeDirectory("field")
        defer { try? FileManager.default.removeItem(at: dir) }
        try #"{"bug_type":"309","os_version":"iPhone OS 17.0"}"#.write(to: dir.appendingPathComponent("crash.ips"), atomically: true, encoding: .utf8)
        let foreign = try ProcessRunner.memprof(["import", "crash.ips", "-o", "w.yaml"], in: dir)
        #expect(foreign.status == 2)
        #expect(foreign.stderr.contains("crash.ips:1:13: bug_type: '309' (a crash report) is not a JetsamEvent report"), "\(foreign.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("w.yaml").path), "nothing half-written")
        let missing = try ProcessRunner.memprof(["import", "nope.ips"], in: dir)
        #expect(missing.status == 2)
        #expect(try ProcessRunner.memprof(["run", "phone-day", "--out", "r", "--no-sampling"], in: dir).status == 0)
        let noFolder = try ProcessRunner.memprof(["export", "r", "--format", "jetsam"], in: dir)
        #expect(noFolder.status == 2)
        #expect(noFolder.stderr.contains("name a folder with -o DIR"))
    }

    /// A sweep's MetricKit export read back with `memprof field`: each run a device-day, each
    /// cell an app on a device and OS; a malformed payload is located and nothing is written.
    @Test func fieldReadsAFleetsPayloads() throws {
        let dir = try Scratch.makeDirectory("field")
        defer { try? FileManager.default.removeItem(at: dir) }
        try """
            memprof: 1
            sweep: field-e2e
            workload: background-heavy
            seeds: 1..4
            matrix:
              device: [iphone-6-plus, ipad-air-2]
            """.write(to: dir.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
        #expect(try ProcessRunner.memprof(["sweep", "s.yaml", "-o", "fleet"], in: dir).status == 0)
        #expect(try ProcessRunner.memprof(["export", "fleet", "--format", "metrickit", "-o", "payloads"], in: dir).status == 0)
        let field = try ProcessRunner.memprof(["field", "payloads", "--app", "exporter", "-o", "field.json"], in: dir)
        #expect(field.status == 0, "\(field.stderr)")
        #expect(field.stdout.contains("exporter on iPhone7,1, iPhone OS 8.4.1 (12H321): 4 days"), "\(field.stdout)")
        #expect(field.stdout.contains("memory pressure"), "\(field.stdout)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("field.json"))) as! [String: Any]
        let cells = json["cells"] as! [[String: Any]]
        #expect(cells.count == 2 && cells.allSatisfy { $0["days"] as? Int == 4 && $0["app"] as? String == "exporter" })

        try #"[{"metaData": {"deviceType": "d", "osVersion": "o"}, "memoryMetrics": {"peakMemoryUsage": "12 parsecs"}}]"#
            .write(to: dir.appendingPathComponent("bad.json"), atomically: true, encoding: .utf8)
        let bad = try ProcessRunner.memprof(["field", "bad.json", "-o", "bad-field.json"], in: dir)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("bad.json:1:91: [0].memoryMetrics.peakMemoryUsage: unknown size unit 'parsecs'"), "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("bad-field.json").path), "nothing half-written")
    }
}
