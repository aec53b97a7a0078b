import Foundation
import MemprofReport
import MemprofTestSupport
import Testing
@testable import MemprofField

/// field.json read back (what `memprof calibrate FIELD.json` reads): the summary as it was
/// written, every malformed value refused at its line, column and key, and cells pooled as a
/// calibration pools a device's OS versions.
@Suite struct FieldSummaryReaderTests {
    static func payloads(_ os: String, seeds: ClosedRange<UInt64>) throws -> [MetricKitPayload] {
        try seeds.flatMap { seed in
            let text = MetricKitExport.json(try ReportFixture.builtin("background-heavy", seed: seed))
            return try MetricKitPayloadReader(file: "d.json").read(text.replacingOccurrences(of: "\"osVersion\" : \"", with: "\"osVersion\" : \"\(os)"))
        }
    }

    @Test func fieldJSONReadsBackAsWritten() throws {
        let summary = FieldSummary(payloads: try Self.payloads("", seeds: 1...3), files: 3)
        let read = try FieldSummaryReader(file: "field.json").read(summary.json)
        // Bytes are written whole: the read summary writes the same field.json.
        #expect(read.json == summary.json)
        #expect(read.cells.map(\.app) == summary.cells.map(\.app))
        #expect(read.cells.map(\.exits) == summary.cells.map(\.exits))
        #expect(read.cells.map(\.time) == summary.cells.map(\.time))
        #expect(FieldSummaryReader.isFieldSummary(Array(summary.json.utf8)))
        #expect(!FieldSummaryReader.isFieldSummary(Array(MetricKitExport.json(try ReportFixture.builtin("background-heavy", seed: 1)).utf8)))
    }

    @Test(arguments: [
        (#"""
            {"schema": "memprof.field/2", "files": 1, "payloads": 1, "cells": []}
            """#, "f.json:1:12: schema: 'memprof.field/2' is not memprof.field/1, the field.json this memprof reads"),
        (#"{"schema": "memprof.field/1", "files": 1, "cells": []}"#, "f.json:1:1: payloads: missing key 'payloads'"),
        (#"""
            {"schema": "memprof.field/1", "files": 1, "payloads": 1, "cells": [{"app": "a", "deviceType": "iPhone12,1", "osVersion": "x", "days": 2, "exitDays": 2, \#
            "exits": [], "time": [], "launches": []}]}
            """#,
         "f.json:1:68: cells[0].days: the cells hold 2 days or more, more than the 1 payloads the file counts"),
        (#"""
            {"schema": "memprof.field/1", "files": 1, "payloads": 9, "cells": [{"app": "a", "deviceType": "d", "osVersion": "x", "days": 2, "exitDays": 3, "exits": [], \#
            "time": [], "launches": []}]}
            """#,
         "f.json:1:141: cells[0].exitDays: 3 is out of range 0...2"),
        (#"""
            {"schema": "memprof.field/1", "files": 1, "payloads": 9, "cells": [{"app": "a", "deviceType": "d", "osVersion": "x", "days": 2, "exitDays": 2, \#
            "exits": [{"side": "up", "counter": "c", "total": 1, "perDay": 0.5, "low": 0, "high": 1, "interval": "garwood"}], "time": [], "launches": []}]}
            """#,
         "f.json:1:163: cells[0].exits[0].side: 'up' is neither background nor foreground"),
        (#"""
            {"schema": "memprof.field/1", "files": 1, "payloads": 9, "cells": [{"app": "a", "deviceType": "d", "osVersion": "x", "days": 2, "exitDays": 2, \#
            "exits": [{"side": "background", "counter": "c", "total": 1, "perDay": 0.5, "low": 0.6, "high": 1, "interval": "garwood"}], "time": [], "launches": []}]}
            """#,
         "f.json:1:227: cells[0].exits[0].low: the interval 0.6 – 1.0 does not hold its mean 0.5"),
        (#"""
            {"schema": "memprof.field/1", "files": 1, "payloads": 9, "cells": [{"app": "a", "deviceType": "d", "osVersion": "x", "days": 2, "exitDays": 2, \#
            "exits": [{"side": "background", "counter": "c", "total": -1, "perDay": 0.5, "low": 0, "high": 1, "interval": "exact"}], "time": [], "launches": []}]}
            """#,
         "f.json:1:202: cells[0].exits[0].total: -1 is out of range 0...100000000000.0"),
        (#"""
            {"schema": "memprof.field/1", "files": 1, "payloads": 9, "cells": [{"app": "a", "deviceType": "d", "osVersion": "x", "days": 2, "exitDays": 2, \#
            "exits": [{"side": "background", "counter": "c", "total": 1, "perDay": 0.5, "low": 0, "high": 1, "interval": "exact"}], "time": [], "launches": []}]}
            """#,
         "f.json:1:253: cells[0].exits[0].interval: 'exact' is not an interval memprof writes (garwood, bootstrap, normal, none)"),
        (#"{"schema": "memprof.field/1", "files": 1, "payloads": 1, "cells": [] "#, "f.json:1:70: invalid JSON: expected ',' or '}', found the end of the file"),
    ])
    func malformedFieldJSONIsLocated(text: String, message: String) {
        do {
            _ = try FieldSummaryReader(file: "f.json").read(text)
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.description.hasPrefix(message), "\(error.description)")
        }
    }

    /// Two OS versions of one device pooled from field.json: totals and days add up, means are
    /// weighted by days, the interval holds the mean; suspended memory pools exactly as from the
    /// payloads; a single cell stays as it is.
    @Test func cellsPoolByTheirDays() throws {
        let older = try Self.payloads("A", seeds: 1...3), newer = try Self.payloads("B", seeds: 4...8)
        let app = try #require(older.first?.bundleIdentifier)
        let summary = FieldSummary(payloads: older + newer, files: 2)
        let cells = summary.cells.filter { $0.app == app }
        #expect(cells.count == 2)
        let pooled = FieldSummary.pooled(cells)
        let exact = FieldSummary.cell((older + newer).filter { $0.bundleIdentifier == app })
        #expect(pooled.days == 8 && pooled.exitDays == 8)
        for (p, e) in zip(pooled.exits, exact.exits) {
            #expect(p.counter == e.counter && p.side == e.side)
            #expect(p.rate.total == e.rate.total && abs(p.rate.perDay - e.rate.perDay) < 1e-12)
            #expect(p.rate.low <= p.rate.perDay && p.rate.perDay <= p.rate.high)
        }
        #expect(pooled.suspended == exact.suspended)
        #expect(abs((pooled.peak?.meanBytes ?? 0) - (exact.peak?.meanBytes ?? 0)) < 1)
        let time = try #require(pooled.time.first { $0.key == "foregroundSeconds" }), exactTime = try #require(exact.time.first { $0.key == "foregroundSeconds" })
        #expect(abs(time.rate.perDay - exactTime.rate.perDay) < 1e-9 && abs(time.standardDeviation - exactTime.standardDeviation) < 1e-6)
        #expect(FieldSummary.pooled([cells[0]]) == cells[0])
    }
}
