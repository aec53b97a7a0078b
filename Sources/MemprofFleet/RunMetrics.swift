import MemprofReportReader
import MemprofCore

/// The numbers of a run's summary and apps under the names `compare` gives them
/// (`MetricExtractor`, which flattens the report model through `Encodable`), read field by field:
/// a sweep reads the metrics of every run, and `Encodable` is not cheap enough for that (a boxed
/// generic container per object, its type looked up at run time, a dotted name built per number).
/// A test holds the names and values to `MetricExtractor`'s for every built-in workload at
/// several seeds, so a field added to `Summary` or `AppStats` without a line here fails it.
///
/// A name is a node of `MetricPaths` (a tree of keys), not a string: a run finds each key
/// where it was last time under its parent and never builds a dotted name again.
enum RunMetrics {
    /// The tree of paths met so far, and the (node, value) pairs of one run.
    final class Sink {
        let paths: MetricPaths
        var values: [(node: Int32, value: Int64)] = []
        init(_ paths: MetricPaths) { self.paths = paths }
    }

    static func flatten(summary: Summary, apps: [(id: String, stats: AppStats)], into sink: Sink) {
        var root = Scope(sink: sink, node: MetricPaths.root)
        root.object("summary") { $0.add(summary) }
        root.object("apps") { scope in
            for (id, stats) in apps { scope.object(id) { $0.add(stats) } }
        }
    }

    /// The members of one object: each key a child of `node`, numbered in the order they come.
    struct Scope {
        let sink: Sink
        let node: Int32
        private var position = 0

        init(sink: Sink, node: Int32) {
            self.sink = sink
            self.node = node
        }

        private mutating func child(_ key: String) -> Int32 {
            defer { position += 1 }
            return sink.paths.child(node, key, at: position)
        }

        mutating func add(_ key: String, _ value: Int64) { sink.values.append((child(key), value)) }
        mutating func add(_ key: String, _ value: Int) { add(key, Int64(value)) }

        mutating func object(_ key: String, _ body: (inout Scope) -> Void) {
            var scope = Scope(sink: sink, node: child(key))
            body(&scope)
        }

        /// Exit counts with every reason, 0 where the report leaves one out (`MetricExtractor`'s rule).
        mutating func counts(_ key: String, _ counts: [String: Int]?) {
            guard let counts else { return }
            object(key) { scope in
                for reason in ExitReason.allCases { scope.add(reason.rawValue, counts[reason.rawValue] ?? 0) }
            }
        }

        /// Numbers of this object.
        mutating func members(_ list: [(String, Int)]) {
            for (name, value) in list { add(name, value) }
        }

        /// An object of a few numbers.
        mutating func numbers(_ key: String, _ members: [(String, Int64)]) {
            object(key) { scope in for (name, value) in members { scope.add(name, value) } }
        }

        mutating func add(_ s: Summary) {
            members([("coldLaunches", s.coldLaunches), ("backgroundLaunches", s.backgroundLaunches),
                     ("warmResumes", s.warmResumes), ("compressedResumes", s.compressedResumes),
                     ("compressions", s.compressions), ("evictions", s.evictions), ("memoryWarnings", s.memoryWarnings),
                     ("peakUsedBytes", Int(s.peakUsedBytes)), ("peakCompressedBytes", Int(s.peakCompressedBytes)),
                     ("coldRelaunchesAfterKill", s.coldRelaunchesAfterKill)])
            counts("terminations", s.terminations)
            add("backgroundTasks", s.backgroundTasks)
            add("fetches", s.fetches)
            add("pushes", s.pushes)
            add("refreshTasks", s.refreshTasks)
            add("processingTasks", s.processingTasks)
            let pressure = s.timeAtPressureUs
            numbers("timeAtPressureUs", [("normal", pressure.normal), ("warning", pressure.warning), ("critical", pressure.critical)])
            if let swap = s.swap { numbers("swap", [("peakBytes", swap.peakBytes), ("timeOverRamUs", swap.timeOverRamUs)]) }
            if let c = s.compressor {
                numbers("compressor", [("peakBytes", c.peakBytes), ("peakUncompressedBytes", c.peakUncompressedBytes),
                                       ("endBytes", c.endBytes), ("endUncompressedBytes", c.endUncompressedBytes),
                                       ("compressions", c.compressions), ("decompressions", c.decompressions)])
            }
            if let f = s.freezer { add(f) }
        }

        /// The `xnu` freezer's figures, as report.json's `summary.freezer` names them.
        mutating func add(_ f: FreezerSummary) {
            object("freezer") { scope in
                scope.members([("dailyBudgetBytes", Int(f.dailyBudgetBytes)), ("pageSize", Int(f.pageSize)),
                               ("freezes", f.freezes), ("pagesWritten", Int(f.pagesWritten)),
                               ("bytesWritten", Int(f.bytesWritten)), ("intervalsStarted", f.intervalsStarted),
                               ("budgetRemainingPages", Int(f.budgetRemainingPages)),
                               ("budgetRemainingBytes", Int(f.budgetRemainingBytes)),
                               ("budgetExhaustions", f.budgetExhaustions)])
                if let at = f.firstExhaustedAtUs { scope.add("firstExhaustedAtUs", at) }
                scope.members([("thaws", f.thaws), ("bytesReadBack", Int(f.bytesReadBack))])
                scope.numbers("skips", [("noCompressorSpace", Int64(f.skips.noCompressorSpace)),
                                        ("noSwapSpace", Int64(f.skips.noSwapSpace)),
                                        ("belowMinPages", Int64(f.skips.belowMinPages)),
                                        ("outOfBudget", Int64(f.skips.outOfBudget)),
                                        ("outOfSlots", Int64(f.skips.outOfSlots))])
            }
        }

        mutating func add(_ a: AppStats) {
            object("timeInStateUs") { t in for (state, us) in a.timeInStateUs { t.add(state, us) } }
            let l = a.launches
            numbers("launches", [("cold", Int64(l.cold)), ("background", Int64(l.background)), ("warm", Int64(l.warm)),
                                 ("fromCompressed", Int64(l.fromCompressed))])
            counts("exits", a.exits)
            add("memoryKills", a.memoryKills)
            members([("compressions", a.compressions), ("evictions", a.evictions), ("memoryWarnings", a.memoryWarnings),
                     ("peakFootprintBytes", Int(a.peakFootprintBytes)), ("coldRelaunchesAfterKill", a.coldRelaunchesAfterKill)])
            let r = a.resumeLatencyUs
            numbers("resumeLatencyUs", [("count", Int64(r.count)), ("p50", r.p50), ("max", r.max)])
            add("backgroundTasks", a.backgroundTasks)
            add("fetches", a.fetches)
            add("pushes", a.pushes)
            add("refreshTasks", a.refreshTasks)
            add("processingTasks", a.processingTasks)
            if let headroom = a.headroom {
                object("headroom") { h in
                    for (key, time) in [("enterBackground", headroom.enterBackground), ("backgroundTask", headroom.backgroundTask),
                                        ("fetch", headroom.fetch), ("push", headroom.push), ("refresh", headroom.refresh)] {
                        guard let time else { continue }
                        h.numbers(key, [("declaredUs", time.declaredUs), ("limitUs", time.limitUs), ("spareUs", time.spareUs)])
                    }
                    let f = headroom.footprint
                    h.numbers("footprint", [("peakBytes", f.peakBytes), ("limitBytes", f.limitBytes), ("spareBytes", f.spareBytes)])
                }
            }
            counts("foregroundExits", a.foregroundExits)
            if let m = a.suspendedMemory {
                numbers("suspendedMemory", [("sampleCount", Int64(m.sampleCount)), ("averageBytes", m.averageBytes),
                                            ("standardDeviationBytes", m.standardDeviationBytes)])
            }
        }

        mutating func add(_ key: String, _ t: BackgroundTaskCounts) {
            numbers(key, [("started", Int64(t.started)), ("completed", Int64(t.completed)),
                          ("expiredEnded", Int64(t.expiredEnded)), ("expiredKilled", Int64(t.expiredKilled))])
        }

        /// BGTaskScheduler counts, where the run has them (report.json leaves them out otherwise).
        mutating func add(_ key: String, _ t: ScheduledTaskCounts?) {
            guard let t else { return }
            numbers(key, [("started", Int64(t.started)), ("completed", Int64(t.completed)), ("expired", Int64(t.expired))])
        }

        mutating func add(_ key: String, _ h: HandlerCounts) {
            numbers(key, [("started", Int64(h.started)), ("completed", Int64(h.completed)), ("timedOut", Int64(h.timedOut))])
        }
    }
}

/// The metric paths met so far, as a tree of keys: node 0 is the root, every other node a key
/// under its parent, with its dotted name (built once) and its column (-1 when none). Grows as
/// new paths appear; each thread of a sweep has its own.
final class MetricPaths {
    private struct Edge: Hashable {
        var parent: Int32
        var key: String
    }

    private var children: [Edge: Int32] = [:]
    /// Node → the children in the order a parent last listed them (most objects list theirs in
    /// the same order every run, so a key is found by position and one string comparison).
    private var recent: [[Int32]] = [[]]
    private var keys: [String] = [""]
    private(set) var names: [String] = [""]
    /// Node → column of `columns`, or -1.
    private(set) var columns: [Int32] = [-1]
    private let columnIndex: MetricColumns?

    static let root: Int32 = 0

    /// `columns` numbers the nodes whose names it has.
    init(columns: MetricColumns? = nil) { columnIndex = columns }

    /// The node of `key` under `parent`, met as the parent's `position`-th key.
    func child(_ parent: Int32, _ key: String, at position: Int) -> Int32 {
        let p = Int(parent)
        if position < recent[p].count {
            let node = recent[p][position]
            if keys[Int(node)] == key { return node }
        }
        let node = child(parent, key)
        if position < recent[p].count { recent[p][position] = node } else { recent[p].append(node) }
        return node
    }

    private func child(_ parent: Int32, _ key: String) -> Int32 {
        let edge = Edge(parent: parent, key: key)
        if let node = children[edge] { return node }
        let node = Int32(names.count)
        let name = parent == Self.root ? key : names[Int(parent)] + "." + key
        names.append(name)
        keys.append(key)
        recent.append([])
        columns.append(columnIndex?.column(name).map(Int32.init) ?? -1)
        children[edge] = node
        return node
    }
}
