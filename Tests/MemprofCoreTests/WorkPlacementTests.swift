import MemprofCore
import Testing

/// The engine tells the performer where each run of work lies in simulated time, and
/// keeps MetricKit's per-app figures.
@Suite struct WorkPlacementTests {
    final class Log: @unchecked Sendable {
        var placements: [(startUs: Microseconds, durationUs: Microseconds)] = []
    }

    /// Measures every run at `wallUs` and, past `overrunLimit`, says it overran.
    struct Recorder: WorkPerformer {
        let log: Log
        var wallUs: Int64 = 10_000
        var failure: String?
        mutating func perform(_ work: WorkSpec, app: String, handler: HandlerKind) -> Int64 { wallUs }
        mutating func run(_ work: WorkSpec, app: String, handler: HandlerKind, wallLimitUs: Microseconds?) -> WorkOutcome {
            WorkOutcome(wallMicroseconds: wallUs, overran: wallLimitUs.map { wallUs > $0 } ?? false, failure: failure)
        }
        mutating func placeLastRun(startUs: Microseconds, durationUs: Microseconds) {
            log.placements.append((startUs, durationUs))
        }
    }

    static let work = WorkSpec(kernel: "checksum", sizeBytes: 1 << 20)

    @Test func aRunIsPlacedAtItsHandlerStartForItsSimulatedDuration() {
        let log = Log()
        let task = BackgroundTaskSpec(handler: HandlerSpec(timeUs: 3 * mins, work: Self.work))
        let push = HandlerSpec(timeUs: 2 * sec, work: Self.work)
        let workload = makeWorkload([makeApp("a", modes: [.remoteNotification], push: push, task: task), makeApp("b")],
                                    duration: 10 * mins, [(0, .open(0)), (5 * sec, .open(1)), (6 * mins, .push(0))])
        var simulator = Simulator(workload: workload, options: .init(performer: Recorder(log: log)))
        _ = simulator.run()
        #expect(log.placements.map(\.startUs) == [5 * sec, 6 * mins])
        #expect(log.placements.map(\.durationUs) == [3 * mins, 2 * sec])
    }

    @Test func measuredTimingPlacesTheMeasuredDurationAndAnOverrunTheWindow() {
        let log = Log()
        var measured = HandlerSpec(timeUs: 2 * sec, work: Self.work)
        measured.timing = .measured
        let workload = makeWorkload([makeApp("a", modes: [.remoteNotification], push: measured), makeApp("b")],
                                    duration: 10 * mins, [(0, .open(0)), (5 * sec, .open(1)), (1 * mins, .push(0))])
        var simulator = Simulator(workload: workload, options: .init(performer: Recorder(log: log, wallUs: 250_000)))
        _ = simulator.run()
        #expect(log.placements.map(\.durationUs) == [250_000])  // cpuScale 1

        let overran = Log()
        let window = workload.policy.pushWindowUs
        var long = HandlerSpec(timeUs: 2 * sec, work: Self.work)
        long.timing = .measured
        let slow = makeWorkload([makeApp("a", modes: [.remoteNotification], push: long), makeApp("b")],
                                duration: 10 * mins, [(0, .open(0)), (5 * sec, .open(1)), (1 * mins, .push(0))])
        var second = Simulator(workload: slow, options: .init(performer: Recorder(log: overran, wallUs: window * 3)))
        let result = second.run()
        #expect(overran.placements.map(\.durationUs) == [window])
        #expect(result.apps[0].exits["pushTimeout"] == 1)
    }

    /// Work that fails (a program's crash or failure status, spec §8.1) ends its handler then:
    /// its wall time × cpuScale after the start when that is sooner than the declared time, with
    /// the failure as the handler's outcome; the app suspends as after any handler, and the
    /// handler is not counted as completed. A failure after the declared time changes nothing.
    @Test(arguments: [(wallUs: Int64(300_000), crashAtUs: Int64(600_000)), (wallUs: Int64(5_000_000), crashAtUs: nil)])
    func failedWorkEndsItsHandlerWhenItFailed(wallUs: Int64, crashAtUs: Int64?) throws {
        let task = BackgroundTaskSpec(handler: HandlerSpec(timeUs: 3 * sec, work: Self.work))
        var workload = makeWorkload([makeApp("a", task: task), makeApp("b")],
                                    duration: 10 * mins, [(0, .open(0)), (5 * sec, .open(1))])
        workload.device.cpuScale = 2
        var simulator = Simulator(workload: workload, options: .init(
            performer: Recorder(log: Log(), wallUs: wallUs, failure: "SIGSEGV")))
        let result = simulator.run()
        let end = try #require(result.events("a", .handlerEnd).first)
        let endUs = 5 * sec + (crashAtUs ?? 3 * sec)
        #expect(end.atUs == endUs)
        #expect(end.fields.detail == (crashAtUs == nil ? "completed" : "failed: SIGSEGV"))
        #expect(result.stateIntervals["a"]?.contains { $0.startUs == endUs && $0.state == .suspended } == true)
        #expect(result.summary.backgroundTasks.completed == (crashAtUs == nil ? 1 : 0))
        #expect(result.summary.backgroundTasks.started == 1)
    }

    /// MetricKit's figures: exits counted on the side the app ended on, and the footprint at
    /// every suspension (mean and sample deviation).
    @Test func foregroundExitsAndSuspendedMemory() throws {
        let workload = makeWorkload(
            [makeApp("a", footprint: 40 * MB, backgroundRelease: 10 * MB), makeApp("b", footprint: 30 * MB)],
            duration: 10 * mins,
            [(0, .open(0)), (1 * mins, .open(1)), (2 * mins, .open(0)), (135 * sec, .allocate(0, 20 * MB)),
             (150 * sec, .open(1)), (165 * sec, .open(0)), (3 * mins, .allocate(0, 200 * MB)), (4 * mins, .open(1)),
             (5 * mins, .quit(1))])
        let result = simulate(workload)
        let a = result.stats("a"), b = result.stats("b")
        // a was suspended with 30 MB, then 50 MB (60 MB less its 10 MB release, which it gets
        // back on each return).
        #expect(a.suspendedMemory == SuspendedMemory(sampleCount: 2, averageBytes: 40 * MB,
                                                     standardDeviationBytes: Bytes((200.0 * Double(MB * MB)).squareRoot().rounded())))
        #expect(b.suspendedMemory == SuspendedMemory(sampleCount: 2, averageBytes: 30 * MB, standardDeviationBytes: 0))
        // a passed the 100 MB app limit in the foreground; b, quit while in the foreground, left
        // the foreground first (spec §2.1), so its exit is a background one.
        #expect(a.exits["memoryLimit"] == 1 && a.foregroundExits?["memoryLimit"] == 1)
        #expect(b.exits["userQuit"] == 1 && b.foregroundExits?["userQuit"] == 0)
        #expect(a.foregroundExits?.values.reduce(0, +) == 1)
    }
}
