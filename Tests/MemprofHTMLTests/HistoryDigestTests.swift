import Foundation
import MemprofCore
import MemprofReport
import Testing
@testable import MemprofHTML

/// report.html's history: gathered one event at a time, it keeps what the page shows
/// (the table's first and last rows, the first and last jetsam reports with their decisions)
/// and the same rows, counts and links as every decision of the run would give.
@Suite struct HistoryDigestTests {
    /// A long run: each step at its own instant, a compression, then a memory kill of another
    /// app with its snapshot (taken before the kill's events, as the engine does).
    static func run(steps: Int) -> (events: [SimEvent], jetsam: [JetsamEvent]) {
        var events: [SimEvent] = []
        var jetsam: [JetsamEvent] = []
        for step in 0..<steps {
            let t = Microseconds(step) * 1_000
            events.append(SimEvent(atUs: t, app: "a", .compression(bytes: 10, compressedBytes: 5, freezer: nil)))
            jetsam.append(JetsamEvent(atUs: t + 1, killed: "k\(step % 7)", exitReason: .memoryLimit, largestProcess: "a",
                                      pageSize: 16_384, processes: []))
            events.append(SimEvent(atUs: t + 1, app: "k\(step % 7)", .exit(.memoryLimit, from: .background)))
        }
        return (events, jetsam)
    }

    @Test func keepsTheEndsOfALongRunAndItsCounts() {
        let (events, jetsam) = Self.run(steps: 5_000)
        var options = HTMLReport.Options()
        options.tableLimit = 10
        var digest = HistoryDigest(durationUs: 5_000_000, keepsHandlerRuns: false, options: options)
        // Snapshots come as the run goes, each before its kill's events.
        var next = 0
        for event in events {
            while next < jetsam.count, jetsam[next].atUs <= event.atUs { digest.jetsam(jetsam[next]); next += 1 }
            digest.event(event)
        }
        let drawn = digest.finish()
        let every = Decisions.rows(events, jetsam: jetsam)
        #expect(drawn.decisions == every.count && every.count == 10_000)
        #expect(drawn.counts == [.compression: 5_000, .exit: 5_000])
        #expect(drawn.head == Array(every.prefix(5)))
        #expect(drawn.tail == Array(every.suffix(5)))
        // The first and last 50 jetsam reports, each with the kill that took its snapshot.
        let half = HTMLReport.jetsamShownHalf
        #expect(drawn.jetsamCount == 5_000)
        #expect(drawn.jetsam.map(\.index) == Array(0..<half) + Array((5_000 - half)..<5_000))
        #expect(drawn.jetsam.allSatisfy { $0.event == jetsam[$0.index] })
        for (index, _) in drawn.jetsam {
            let row = drawn.decisionFor[index]
            #expect(row?.kind == .exit && row?.jetsam == [index])
        }
        #expect(drawn.decisionFor.count == 2 * half)
    }

    @Test func aWholeReportGivesWhatItsEventsGive() {
        let (events, jetsam) = Self.run(steps: 30)
        var options = HTMLReport.Options()
        options.tableLimit = 1_000
        var digest = HistoryDigest(durationUs: 30_000, keepsHandlerRuns: false, options: options)
        for snapshot in jetsam { digest.jetsam(snapshot) }
        for event in events { digest.event(event) }
        let drawn = digest.finish()
        // All rows shown: the table is short.
        #expect(drawn.head + drawn.tail == Decisions.rows(events, jetsam: jetsam))
        #expect(drawn.jetsam.count == 30)
        // The marks, kind by kind (the chart's order), each kind's in time order.
        let every = Decisions.marks(events)
        let byKind = MemoryChart.markKinds.flatMap { kind in every.filter { $0.kind == kind.kind } }
        #expect(drawn.marks.marks.map(\.atUs) == byKind.map(\.atUs))
        #expect(drawn.marks.marks.map(\.kind) == byKind.map(\.kind))
    }

    /// The pressure strip gathered one change at a time marks the columns the changes reach.
    @Test func pressureColumnsMarkTheHighestLevel() {
        var columns = PressureColumns(scale: MemoryChart.timeScale(span: 1_000), durationUs: 1_000)
        columns.add(.init(atUs: 0, level: .normal))
        columns.add(.init(atUs: 500, level: .critical))
        columns.add(.init(atUs: 600, level: .warning))
        let highest = columns.finish()
        #expect(highest.count == PressureColumns.columns)
        #expect(highest.first == 0 && highest.last == 1)
        #expect(highest.contains(2))
        #expect(highest.firstIndex(of: 2)! < highest.firstIndex(of: 1)!)
    }

    @Test func ringKeepsTheLast() {
        var ring = Ring<Int>(capacity: 3)
        for i in 0..<200 { ring.append(i) }
        #expect(ring.elements == [197, 198, 199])
        #expect(ring.first == 197)
    }
}
