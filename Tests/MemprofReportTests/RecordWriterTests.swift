import Foundation
import MemprofCore
import MemprofOutput
import Testing
@testable import MemprofReport

/// The records report.json's large sections write straight (one `JSONRecord` per
/// record), held to `JSONEncoder`'s output of the same values: every kind of event, with and
/// without each optional key, and text that must be escaped.
@Suite struct RecordWriterTests {
    private static func text(_ write: (inout JSONWriter) -> Void) -> String {
        var out = JSONWriter()
        write(&out)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    private static func encoded(_ value: some Encodable) throws -> String {
        String(decoding: try ReportJSON.makeEncoder().encode(value), as: UTF8.self)
    }

    static let candidates = [
        SimEvent.Candidate(app: "mail", state: .suspended, footprintBytes: 75_637_282, lastForegroundUs: 97_000_000, taken: true),
        SimEvent.Candidate(app: "we\"ird\\name", state: .compressed, footprintBytes: 0, lastForegroundUs: -1, taken: false,
                           band: 3),
    ]

    /// One event of every payload, each optional value both present and absent.
    static let events: [SimEvent] = {
        let freezer = FreezerDecision(band: 0, suspendedNotFrozen: 4, frozen: 2, availableBytes: 1 << 20, usedBytes: 900_000_000)
        let payloads: [SimEvent.Payload] = [
            .transition(from: .suspended, to: .compressed, cause: .compressed),
            .transition(from: .background, to: .suspended, cause: .activityEnded(.fetch, .interrupted(by: "a\"b"))),
            .transition(from: .notRunning, to: .inactive, cause: nil),
            .callback(.applicationDidEnterBackground, notification: "UIApplicationDidEnterBackgroundNotification"),
            .launch(.cold, bytes: 111_149_056, wake: nil),
            .launch(.background, bytes: 2_097_152, wake: .push),
            .resume(.fromCompressed, latencyUs: 271_250),
            .compression(bytes: 80_000_000, compressedBytes: 30_000_000, freezer: nil),
            .compression(bytes: 80_000_000, compressedBytes: 30_000_000, freezer: freezer),
            .decompression(bytes: 30_000_000),
            .eviction(bytes: 66_060_288),
            .exit(.memoryPressure, from: .suspended),
            .exit(.userQuit, from: .active),
            .memoryWarning(.pressure, freedBytes: 10_485_760),
            .pressure(.critical, usedBytes: Int64.max),
            .reclaim(.init(neededBytes: 5, freedBytes: 0, usedBytes: -7, candidates: candidates)),
            .reclaim(.init(neededBytes: 0, freedBytes: 0, usedBytes: 0, candidates: [])),
            .handlerStart(.fetch, bytes: 4096, inForeground: false),
            .handlerStart(.push, bytes: nil, inForeground: true),
            .handlerStart(.audio, bytes: nil, inForeground: false),
            .handlerEnd(.backgroundTask, outcome: .expiredKilled),
            .handlerEnd(.push, outcome: .failed("SIGSEGV \u{01}")),
            .pushDelivered(.userQuit),
            .ignored(action: "quit", reason: .notRunning),
            .objectShown(object: "Player#1", bytes: 10),
            .objectDismissed(object: "Player#1", outcome: .leaked, bytes: 10),
            .notificationDelivery(notification: "N", object: "Player#1", observer: .dangling),
            .swap(.pagingOut, usedBytes: 1, bytes: 2),
            .processExit(.memoryPressure, kind: .extension, band: 0, bytes: 3),
            .processLaunch(kind: .daemon, band: 0, bytes: 4),
            .charging(.pluggedIn),
        ]
        var events: [SimEvent] = []
        for (n, payload) in payloads.enumerated() {
            events.append(SimEvent(atUs: Int64(n) * 1_000_003, app: "app\(n)", payload))
            events.append(SimEvent(atUs: Int64.min + Int64(n), app: nil, payload))
        }
        return events
    }()

    @Test func everyKindOfEventIsWrittenAsJSONEncoderWritesIt() throws {
        #expect(Set(Self.events.map(\.kind)) == Set(SimEvent.Kind.allCases))
        for event in Self.events {
            #expect(Self.text { $0.write(event) } == (try Self.encoded(event)))
            #expect(Self.text { $0.write(event, comma: true) } == "," + (try Self.encoded(event)))
        }
        // A list of them, as a section is written.
        let list = Self.text { out in for (n, e) in Self.events.enumerated() { out.write(e, comma: n > 0) } }
        #expect("[" + list + "]" == (try Self.encoded(Self.events)))
    }

    @Test func jetsamSnapshotsLevelsAndPairsAreWrittenAsJSONEncoderWritesThem() throws {
        let snapshot = JetsamEvent(atUs: 291_000_000, killed: "app13", exitReason: .memoryPressure, largestProcess: "app\"25",
                                   pageSize: 16384, processes: [
                                       .init(pid: 475, priority: 0, name: "app25", rpages: 37005, states: ["suspended"]),
                                       .init(name: "app13", rpages: 0, states: [], reason: "vm-pageshortage"),
                                       .init(pid: 1, name: "é\n", rpages: -1, states: ["suspended", "frozen"]),
                                   ])
        #expect(Self.text { $0.write(snapshot, comma: true) } == "," + (try Self.encoded(snapshot)))
        // With the in-RAM compressor's figures (a run under `xnu` on a phone), and without.
        var withPool = snapshot
        withPool.compressor = JetsamEvent.Compressor(pages: 96_635, uncompressedPages: 257_255, compressions: 3_009_015,
                                                     decompressions: 2_533_158)
        let pooled = Self.text { $0.write(withPool) }
        #expect(pooled == (try Self.encoded(withPool)))
        #expect(pooled.hasPrefix(#"{"atUs":291000000,"compressor":{"compressions":3009015,"decompressions":2533158,"#
            + #""pages":96635,"uncompressedPages":257255},"exitReason":"#))
        #expect(!Self.text { $0.write(snapshot) }.contains("compressor"))
        for level in PressureLevel.allCases {
            let change = Timeline.LevelChange(atUs: 42, level: level)
            #expect(Self.text { $0.write(change) } == (try Self.encoded(change)))
        }
        for (t, v) in [(Int64(0), Int64(0)), (Int64.max, Int64.min), (-1, 999_999_999_999)] {
            #expect(Self.text { $0.pair(t, v, comma: true) } == "," + (try Self.encoded([t, v])))
        }
    }

    /// A snapshot as the engine takes it (apps by index) is written straight as the report's
    /// `JetsamEvent` it stands for: every state, with and without audio and a band, the killed
    /// app with its reason, names that must be escaped.
    @Test(arguments: [ExitReason.memoryPressure, .memoryLimit], [false, true])
    func engineSnapshotsAreWrittenAsTheirJetsamEvents(reason: ExitReason, pooled: Bool) throws {
        let ids = ["mail", "we\"ird\\name", "é\n", "maps"]
        let processes = AppState.allCases.enumerated().flatMap { n, state in
            [true, false].map { playing in
                JetsamSnapshot.Process(app: n % ids.count, priority: playing ? nil : n * 10, rpages: Int64(n) * 4099 - 1,
                                       state: state, playingAudio: playing)
            }
        }
        let pool = pooled ? JetsamEvent.Compressor(pages: 3, uncompressedPages: 7, compressions: 11, decompressions: 5) : nil
        let snapshot = JetsamSnapshot(atUs: 291_000_000, killed: 1, exitReason: reason, largestProcess: 2, pageSize: 16384,
                                      processes: processes, compressor: pool)
        let event = snapshot.event(appIDs: ids)
        #expect(event.compressor == pool)
        #expect(event.killed == ids[1] && event.largestProcess == ids[2])
        #expect(event.processes.map(\.pid) == processes.map { 300 + 7 * $0.app })
        #expect(event.processes.filter { $0.reason != nil }.map(\.name) == [String](repeating: ids[1], count: processes.filter { $0.app == 1 }.count))
        #expect(Self.text { $0.write(snapshot, appIDs: ids, comma: true) } == "," + (try Self.encoded(event)))
        #expect(Self.text { $0.write(snapshot, appIDs: ids) } == Self.text { $0.write(event) })
    }
}
