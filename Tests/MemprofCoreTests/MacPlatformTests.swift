import MemprofCore
import Testing

/// Spec §3: platform `macos`. Every expected number is worked out by hand in the comment above it.
@Suite("Platform macos (spec §3)")
struct MacPlatformTests {
    /// A Mac with the same 100 MB for apps as the test phone (`ram − systemReserved`).
    func testMac() -> Device {
        Device(name: "test-mac", platform: .macos, ram: 200 * MB, systemReserved: 100 * MB, appLimit: 200 * MB,
               flash: 64 * MB, flashReadRate: 100 * MB, pageSize: 4 * KB, cpuScale: 1)
    }

    let script: [(Microseconds, ScriptAction)] = [
        (0, .open(0)), (2 * sec, .open(1)), (4 * sec, .open(0)), (6 * sec, .push(1)), (8 * sec, .quit(1)),
    ]

    @Test("the same script: the phone evicts twice, the Mac evicts nothing and pages 20 MB out for 6 s")
    func sameScriptPhoneAndMac() {
        // a, b: 60 MB each; 100 MB for apps on both devices.
        // Phone: 2 s a suspends (60 MB, too large to compress); b's launch needs 60 MB: 120 > 100,
        // a is evicted. 4 s b suspends; a's cold launch evicts b. 6 s push b: no
        // remote-notification mode, delivered to the user. 8 s quit b: not running, ignored.
        let apps = [makeApp("a", footprint: 60 * MB), makeApp("b", footprint: 60 * MB)]
        let phone = simulate(makeWorkload(apps, duration: 10 * sec, script))
        #expect(phone.summary.evictions == 2)
        #expect(phone.summary.swap == nil)
        #expect(phone.exits("a") == ["2000000 memoryPressure"])

        // Mac: 2 s a resigns (will/didResignActive) and keeps running in `background`; b launches:
        // used 120 MB, 20 MB paged out from 2 s. 4 s b resigns, a becomes active again after its
        // 200 ms resume (willBecomeActive at 4 s, didBecomeActive at 4.2 s). 6 s push: not
        // applicable. 8 s quit b: applicationWillTerminate, used back to 60 MB: 6 s over RAM.
        let mac = simulate(makeWorkload(apps, duration: 10 * sec, device: testMac(), script))
        #expect(mac.invariantViolations.isEmpty)
        #expect(mac.summary.evictions == 0)
        #expect(mac.summary.compressions == 0)
        #expect(mac.summary.memoryWarnings == 0)
        #expect(mac.summary.terminations.filter { $0.value > 0 } == ["userQuit": 1])
        #expect(mac.summary.swap?.peakBytes == 20 * MB)
        #expect(mac.summary.swap?.timeOverRamUs == 6 * sec)
        #expect(mac.summary.peakUsedBytes == 120 * MB)
        #expect(mac.timeIn("a", .suspended) == 0)
        #expect(mac.timeIn("a", .background) == 2 * sec)
        #expect(mac.callbacks("a") == [
            "1000000 applicationDidFinishLaunching", "1000000 applicationWillBecomeActive",
            "1000000 applicationDidBecomeActive",
            "2000000 applicationWillResignActive", "2000000 applicationDidResignActive",
            "4000000 applicationWillBecomeActive", "4200000 applicationDidBecomeActive",
        ])
        #expect(mac.callbacks("b").suffix(3) == ["4000000 applicationWillResignActive",
                                                  "4000000 applicationDidResignActive",
                                                  "8000000 applicationWillTerminate"])
        #expect(mac.exits("b") == ["8000000 userQuit"])
        #expect(mac.notificationsPosted["a"]?["NSApplicationDidResignActiveNotification"] == 1)
        #expect(mac.notificationsPosted["a"]?["NSApplicationWillBecomeActiveNotification"] == 2)
        #expect(mac.notificationsPosted["b"]?["NSApplicationWillTerminateNotification"] == 1)
        #expect(mac.events("b", .ignored).map { "\($0.fields.action!): \($0.fields.detail!)" } == ["push: not applicable on macOS"])
        #expect(mac.events.filter { $0.kind == .swap }.map { "\($0.atUs) \($0.fields.detail!) \($0.fields.bytes!)" }
                == ["2000000 pagingOut \(20 * MB)", "8000000 backInRam 0"])
    }

    @Test("iOS-only declarations are recorded as not applicable and never run")
    func iosOnlyDeclarations() {
        // a declares a 30 s background task, fetch every minute and a 1 s enter-background
        // handler releasing 10 MB. On a Mac none of it runs: at 2 s a resigns and stays at 20 MB.
        let a = makeApp("a", backgroundRelease: 10 * MB, backgroundHandler: sec, modes: [.fetch],
                        fetch: FetchSpec(intervalUs: mins, handler: HandlerSpec(timeUs: sec)),
                        task: BackgroundTaskSpec(handler: HandlerSpec(timeUs: 30 * sec)))
        let r = simulate(makeWorkload([a, makeApp("b")], duration: 5 * mins, device: testMac(),
                                      [(0, .open(0)), (2 * sec, .open(1)), (4 * sec, .memoryWarning)]))
        #expect(r.events("a", .ignored).map(\.fields.action) == ["backgroundTask", "fetch", "onBackground"])
        #expect(Set(r.events("a", .ignored).map(\.fields.detail)) == ["not applicable on macOS"])
        #expect(r.handlers("a").isEmpty)
        #expect(r.summary.backgroundTasks.started == 0)
        #expect(r.summary.fetches.started == 0)
        #expect(r.appBytes("a") == [[0, 20 * MB]])
        #expect(r.events.filter { $0.kind == .ignored && $0.fields.action == "memoryWarning" }.count == 1)
        #expect(r.finalState("a") == .background)
    }
}
