import MemprofCore
import Testing

/// The two exits real apps hit besides memory kills (a file lock held at suspension, the
/// background CPU limit), each at its moment.
struct LockedFileAndCPUTests {
    static func task(_ time: Microseconds, locksFile: Bool = false, cpu: Double? = nil) -> BackgroundTaskSpec {
        var handler = HandlerSpec(timeUs: time)
        handler.locksFile = locksFile
        handler.cpu = cpu
        return BackgroundTaskSpec(handler: handler)
    }

    /// db opens at 0; b opens at 2 s, so db leaves the foreground (launch 1 s: at 2 s) and runs its
    /// 10 s task, which took a file lock; when the task ends at 12 s the app would suspend, and
    /// is killed instead (0xdead10cc), at that moment, never suspended.
    @Test("a locked-file workload exits suspendedWithLockedFile at the moment of suspension")
    func lockedFileAtSuspension() {
        let apps = [makeApp("db", task: Self.task(10 * sec, locksFile: true)), makeApp("b")]
        let r = simulate(makeWorkload(apps, duration: 30 * sec, [(0, .open(0)), (2 * sec, .open(1))]))
        let taskEnd = r.events("db", .handlerEnd).first { $0.fields.handler == "backgroundTask" }?.atUs
        #expect(taskEnd == 12 * sec)
        #expect(r.exits("db") == ["12000000 suspendedWithLockedFile"])
        #expect(!r.events("db", .transition).contains { $0.fields.to == .suspended })
        #expect(r.summary.terminations["suspendedWithLockedFile"] == 1)
        #expect(r.jetsamEvents.isEmpty, "not a memory kill")

        // The same app without the lock suspends.
        let free = simulate(makeWorkload([makeApp("db", task: Self.task(10 * sec)), makeApp("b")], duration: 30 * sec,
                                         [(0, .open(0)), (2 * sec, .open(1))]))
        #expect(free.exits("db") == [])
        #expect(free.events("db", .transition).contains { $0.atUs == 12 * sec && $0.fields.to == .suspended })
    }

    /// A background task that keeps the CPU 90% busy for 5 min is killed when iOS's limit window
    /// (80% over 60 s) ends: 2 s + 60 s. Under the share, or shorter than the window, it is not.
    @Test("a background handler over 80% CPU for 60 s exits cpuResourceLimit")
    func cpuLimit() {
        func run(_ spec: BackgroundTaskSpec) -> SimulationResult {
            simulate(makeWorkload([makeApp("c", task: spec), makeApp("b")], duration: 10 * mins,
                                  [(0, .open(0)), (2 * sec, .open(1))]))
        }
        #expect(run(Self.task(5 * mins, cpu: 0.9)).exits("c") == ["62000000 cpuResourceLimit"])
        #expect(run(Self.task(5 * mins, cpu: 0.5)).exits("c") == [])
        #expect(run(Self.task(30 * sec, cpu: 0.9)).exits("c") == [])
    }
}
