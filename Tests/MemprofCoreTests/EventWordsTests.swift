import Foundation
import Testing
@testable import MemprofCore

/// The typed payloads of events against the words report.json has always written for them: a
/// wrong raw value, or a mapping to the wrong key, fails here.
@Suite struct EventWordsTests {
    @Test func closedSetsKeepReportJSONsWords() {
        #expect(LaunchKind.allCases.map(\.rawValue) == ["cold", "background"])
        #expect(ResumeKind.allCases.map(\.rawValue) == ["warm", "fromCompressed"])
        #expect(MemoryWarningCause.allCases.map(\.rawValue) == ["pressure", "script", "limit"])
        #expect(SwapDirection.allCases.map(\.rawValue) == ["pagingOut", "backInRam"])
        #expect(DismissalOutcome.allCases.map(\.rawValue) == ["unregistered", "leaked", "dangling"])
        #expect(DismissalOutcome.allCases.map(\.status) == [.unregistered, .leaked, .dangling])
        #expect(DeliveredObserver.allCases.map(\.rawValue) == ["registered", "leaked", "sent to a deallocated observer"])
        #expect(PushDeliveredReason.allCases.map(\.rawValue)
            == ["no remote-notification mode", "the user quit the app", "the app was never launched"])
        #expect(BackgroundActivity.allCases.map(\.rawValue)
            == ["backgroundTask", "fetch", "push", "audio", "location", "voipCall", "voipKeepalive", "refresh", "processing"])
        #expect(HandlerKind.allCases.map { BackgroundActivity($0).rawValue } == HandlerKind.allCases.map(\.rawValue))
    }

    @Test func handlerOutcomesReadBackFromTheirWords() {
        let outcomes: [HandlerOutcome] = [.completed, .expiredEnded, .expiredKilled, .timedOut, .interrupted(by: "music"),
                                          .failed("SIGSEGV"), .failed("exit status 3")]
        #expect(outcomes.map(\.detail) == ["completed", "expiredEnded", "expiredKilled", "timedOut", "interrupted by music",
                                           "failed: SIGSEGV", "failed: exit status 3"])
        #expect(outcomes.map { HandlerOutcome(detail: $0.detail) } == outcomes)
        #expect(HandlerOutcome(detail: "interrupted by ") == nil)
        #expect(HandlerOutcome(detail: "failed: ") == nil)
        #expect(HandlerOutcome(detail: "finished") == nil)
    }

    @Test func ignoredReasonsReadBackFromTheirWords() {
        let reasons: [IgnoredReason] = IgnoredReason.fixed + [.runsNoCode(.suspended), .noObjectShown("Photo Viewer")]
        #expect(reasons.map { IgnoredReason(detail: $0.detail) } == reasons)
        #expect(IgnoredReason.runsNoCode(.compressed).detail == "the app runs no code while compressed")
        #expect(IgnoredReason.noObjectShown("Inbox").detail == "no Inbox is shown")
        #expect(IgnoredReason.callGoingOn.detail == "a call is already going on")
        #expect(IgnoredReason.anotherAppInForeground.detail == "another app is in the foreground")
        #expect(IgnoredReason(detail: "the app runs no code while asleep") == nil)
        #expect(IgnoredReason(detail: "because") == nil)
    }

    @Test func stateCausesReadBackFromTheirWords() {
        let causes: [StateCause] = LaunchKind.allCases.map(StateCause.launch) + ResumeKind.allCases.map(StateCause.resume)
            + ExitReason.allCases.map(StateCause.exit) + [.evicted, .compressed, .readBackFromFlash]
            + BackgroundActivity.allCases.map { StateCause.woken(for: $0) }
            + BackgroundActivity.allCases.flatMap { activity in
                [HandlerOutcome.completed, .expiredEnded, .expiredKilled, .timedOut, .interrupted(by: "music player")]
                    .map { StateCause.activityEnded(activity, $0) }
            }
            + LifecycleCallback.allCases.map(StateCause.callback)
        #expect(Set(causes.map(\.text)).count == causes.count)
        #expect(causes.map { StateCause(text: $0.text) } == causes)
        #expect(StateCause.launch(.cold).text == "launch cold")
        #expect(StateCause.activityEnded(.fetch, .completed).text == "fetch completed")
        #expect(StateCause.woken(for: .push).text == "push started")
        for wrong in ["", "launch", "launch warm", "exit", "exit bored", "fetch", "fetch ", "fetch finished", "siesta started",
                      "audio interrupted by ", "Evicted", "applicationDidSleep"] {
            #expect(StateCause(text: wrong) == nil, "\(wrong)")
        }
    }

    /// Words near the real ones (cut, grown, a character changed) never crash the reader, and a
    /// word it accepts is exactly the words of the cause it gives.
    @Test func mangledCausesAreRefusedOrExact() {
        var rng = SeededGenerator(seed: 9)
        let words = ["launch cold", "exit memoryPressure", "read back from flash", "fetch started",
                     "audio interrupted by music", "backgroundTask expiredEnded", "applicationDidBecomeActive"]
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ\u{0}é\"")
        for _ in 0..<20_000 {
            var text = Array(words.randomElement(using: &rng)!)
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: text.removeLast(Int.random(in: 0...text.count, using: &rng))
            case 1: text.insert(alphabet.randomElement(using: &rng)!, at: Int.random(in: 0...text.count, using: &rng))
            default: text[Int.random(in: 0..<text.count, using: &rng)] = alphabet.randomElement(using: &rng)!
            }
            if let cause = StateCause(text: String(text)) { #expect(cause.text == String(text)) }
        }
    }

    @Test func freezerDecisionsReadBackFromTheirWords() {
        let decision = FreezerDecision(band: 0, suspendedNotFrozen: 3, frozen: 1, availableBytes: -5, usedBytes: 99)
        #expect(decision.detail == "freezer: band 0, 3 suspended not frozen, 1 frozen, -5 bytes available")
        #expect(FreezerDecision(detail: decision.detail, usedBytes: 99) == decision)
        #expect(FreezerDecision(detail: "freezer: band x, 3 suspended not frozen, 1 frozen, 5 bytes available", usedBytes: 0) == nil)
        #expect(FreezerDecision(detail: "freezer", usedBytes: 0) == nil)
    }

    /// One event of every kind, with the keys report.json has written for it.
    static let samples: [(SimEvent, [String: String])] = {
        let candidate = SimEvent.Candidate(app: "b", state: .suspended, footprintBytes: 7, lastForegroundUs: 3, taken: true)
        let freezer = FreezerDecision(band: 3, suspendedNotFrozen: 2, frozen: 0, availableBytes: 10, usedBytes: 20)
        func e(_ payload: SimEvent.Payload, app: String? = "a") -> SimEvent { SimEvent(atUs: 5, app: app, payload) }
        return [
            (e(.transition(from: .active, to: .inactive, cause: .callback(.applicationWillResignActive))),
             ["from": "active", "to": "inactive", "cause": "applicationWillResignActive"]),
            (e(.transition(from: .background, to: .suspended, cause: .activityEnded(.audio, .interrupted(by: "b")))),
             ["from": "background", "to": "suspended", "cause": "audio interrupted by b"]),
            (e(.transition(from: .background, to: .suspended, cause: nil)), ["from": "background", "to": "suspended"]),
            (e(.callback(.applicationDidEnterBackground, notification: "N")),
             ["callback": "applicationDidEnterBackground", "notification": "N"]),
            (e(.launch(.cold, bytes: 9, wake: nil)), ["detail": "cold", "bytes": "9"]),
            (e(.launch(.background, bytes: 9, wake: .push)), ["detail": "background", "bytes": "9", "handler": "push"]),
            (e(.resume(.fromCompressed, latencyUs: 4)), ["detail": "fromCompressed", "latencyUs": "4"]),
            (e(.compression(bytes: 1, compressedBytes: 2, freezer: nil)), ["bytes": "1", "compressedBytes": "2"]),
            (e(.compression(bytes: 1, compressedBytes: 2, freezer: freezer)),
             ["bytes": "1", "compressedBytes": "2", "usedBytes": "20", "detail": freezer.detail]),
            (e(.decompression(bytes: 6)), ["bytes": "6"]),
            (e(.eviction(bytes: 6)), ["bytes": "6"]),
            (e(.exit(.watchdog, from: .background)), ["reason": "watchdog", "from": "background"]),
            (e(.memoryWarning(.script, freedBytes: 0)), ["detail": "script", "freedBytes": "0"]),
            (e(.pressure(.critical, usedBytes: 8), app: nil), ["level": "critical", "usedBytes": "8"]),
            (e(.reclaim(.init(neededBytes: 1, freedBytes: 7, usedBytes: 2, candidates: [candidate]))),
             ["neededBytes": "1", "freedBytes": "7", "usedBytes": "2", "candidates": "1"]),
            (e(.handlerStart(.audio, bytes: nil, inForeground: false)), ["handler": "audio"]),
            (e(.handlerStart(.push, bytes: 3, inForeground: true)), ["handler": "push", "bytes": "3", "detail": "in the foreground"]),
            (e(.handlerEnd(.backgroundTask, outcome: .expiredKilled)), ["handler": "backgroundTask", "detail": "expiredKilled"]),
            (e(.handlerEnd(.fetch, outcome: .failed("SIGSEGV"))), ["handler": "fetch", "detail": "failed: SIGSEGV"]),
            (e(.pushDelivered(.neverLaunched)), ["detail": "the app was never launched"]),
            (e(.ignored(action: "home", reason: .homeScreenShowing), app: nil),
             ["action": "home", "detail": "the home screen is already showing"]),
            (e(.objectShown(object: "Inbox#1", bytes: 4)), ["object": "Inbox#1", "bytes": "4"]),
            (e(.objectDismissed(object: "Inbox#1", outcome: .dangling, bytes: 4)),
             ["object": "Inbox#1", "detail": "dangling", "bytes": "4"]),
            (e(.notificationDelivery(notification: "N", object: "Inbox#1", observer: .dangling)),
             ["notification": "N", "object": "Inbox#1", "detail": "sent to a deallocated observer"]),
            (e(.swap(.pagingOut, usedBytes: 9, bytes: 1), app: nil), ["detail": "pagingOut", "usedBytes": "9", "bytes": "1"]),
            (e(.processExit(.highwater, kind: .daemon, band: 1, bytes: 4)),
             ["reason": "highwater", "detail": "daemon in band 1", "bytes": "4"]),
            (e(.processLaunch(kind: .daemon, band: 0, bytes: 4)), ["detail": "daemon in band 0", "bytes": "4"]),
            (e(.charging(.pluggedIn), app: nil), ["detail": "pluggedIn"]),
            (e(.charging(.unplugged), app: nil), ["detail": "unplugged"]),
        ]
    }()

    @Test func everyKindWritesItsKeysAndReadsBack() throws {
        #expect(Set(Self.samples.map(\.0.kind)) == Set(SimEvent.Kind.allCases))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        for (event, expected) in Self.samples {
            let object = try #require(try JSONSerialization.jsonObject(with: encoder.encode(event)) as? [String: Any])
            var keys = expected.merging(["kind": event.kind.rawValue, "atUs": "5"]) { a, _ in a }
            if let app = event.app { keys["app"] = app }
            #expect(Set(object.keys) == Set(keys.keys), "\(event.kind)")
            for (key, value) in keys {
                let found = object[key].map { ($0 as? [Any]).map { "\($0.count)" } ?? "\($0)" }
                #expect(found == value, "\(event.kind).\(key)")
            }
            #expect(try JSONDecoder().decode(SimEvent.self, from: encoder.encode(event)) == event)
            #expect(try SimEvent(event.fields) == event)
        }
    }

    @Test func wrongWordsAndMissingKeysNameTheKey() {
        func decode(_ json: String) -> DecodingError? {
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(SimEvent.self, from: Data(json.utf8)) }
            do { _ = try JSONDecoder().decode(SimEvent.self, from: Data(json.utf8)) } catch let error as DecodingError {
                return error
            } catch {}
            return nil
        }
        guard case .dataCorrupted(let context)? = decode(#"{"atUs":1,"kind":"launch","detail":"lukewarm","bytes":1}"#)
        else { Issue.record("no error"); return }
        #expect(context.codingPath.map(\.stringValue) == ["detail"])
        #expect(context.debugDescription == "'lukewarm' is not a detail of a launch event")
        guard case .dataCorrupted(let missing)? = decode(#"{"atUs":1,"kind":"resume","detail":"warm"}"#)
        else { Issue.record("no error"); return }
        #expect(missing.codingPath.map(\.stringValue) == ["latencyUs"])
        #expect(missing.debugDescription == "a resume event needs 'latencyUs'")
        _ = decode(#"{"atUs":1,"kind":"handlerEnd","handler":"siesta","detail":"completed"}"#)
        guard case .dataCorrupted(let cause)? = decode(#"{"atUs":1,"kind":"transition","from":"active","to":"inactive","cause":"boredom"}"#)
        else { Issue.record("no error"); return }
        #expect(cause.codingPath.map(\.stringValue) == ["cause"])
        #expect(cause.debugDescription == "'boredom' is not a cause of a transition event")
        _ = decode(#"{"atUs":1,"kind":"transition","from":"active","to":"inactive","cause":7}"#)
    }

    /// A report.json written before transitions carried a `cause` still reads: the cause is absent.
    @Test func transitionsWithoutACauseStillRead() throws {
        let old = #"{"app":"a","atUs":1,"from":"background","kind":"transition","to":"suspended"}"#
        let event = try JSONDecoder().decode(SimEvent.self, from: Data(old.utf8))
        #expect(event == SimEvent(atUs: 1, app: "a", .transition(from: .background, to: .suspended, cause: nil)))
    }

    /// Events are small (a payload enum, not 20 optionals): long runs hold millions of them.
    @Test func eventsAreSmall() {
        #expect(MemoryLayout<SimEvent>.stride <= 64)
    }
}
