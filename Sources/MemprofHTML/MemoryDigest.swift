import MemprofCore
import MemprofReport

/// ``Downsample/minMax(_:start:end:buckets:)`` one point at a time (each with a payload): every
/// point while there are at most `2 × buckets`, then per bucket the first smallest and the first
/// largest, in time order. Holds at most `2 × buckets + 2` points.
public struct MinMaxReducer<Payload> {
    let start: Microseconds
    let width: Double
    let buckets: Int
    private var count = 0
    /// Every point so far, while there are few enough to be the answer.
    private var kept: [(StepPoint, Payload)]? = []
    private var out: [(StepPoint, Payload)] = []
    private var current = -1
    private var low: (index: Int, point: StepPoint, payload: Payload)?
    private var high: (index: Int, point: StepPoint, payload: Payload)?

    public init(start: Microseconds, end: Microseconds, buckets: Int) {
        self.start = start
        self.buckets = buckets
        width = Double(end - start) / Double(max(buckets, 1))
    }

    /// Whether the answer is every point (no reduction applies).
    private var keepsAll: Bool { buckets <= 0 || width <= 0 }

    /// Adds the next point; `payload` is asked for only when the point may be in the answer (a
    /// payload that is an array the caller keeps changing is then copied only when kept).
    public mutating func add(_ point: StepPoint, _ payload: @autoclosure () -> Payload) {
        if kept != nil {
            kept!.append((point, payload()))
            if !keepsAll && kept!.count > 2 * buckets + 2 { kept = nil }
        }
        defer { count += 1 }
        guard !keepsAll else { return }
        let bucket = MinMaxBuckets.bucket(of: point.atUs, start: start, width: width, buckets: buckets)
        if bucket != current {
            flush()
            current = bucket
            low = (count, point, payload())
            high = low
        } else {
            if point.value < low!.point.value { low = (count, point, payload()) }
            if point.value > high!.point.value { high = (count, point, payload()) }
        }
    }

    private mutating func flush() {
        guard let low, let high else { return }
        let (first, second) = low.index <= high.index ? (low, high) : (high, low)
        out.append((first.point, first.payload))
        if low.index != high.index { out.append((second.point, second.payload)) }
    }

    /// The reduced series.
    public func result() -> [(StepPoint, Payload)] {
        if keepsAll || count <= 2 * buckets { return kept ?? [] }
        var copy = self
        copy.flush()
        return copy.out
    }
}

extension MinMaxReducer where Payload == Void {
    public mutating func add(_ point: StepPoint) { add(point, ()) }
}

/// The memory chart's series of a run, reduced while the run streams its memory changes:
/// the points ``MemoryChart`` would draw from the run's whole timeline, in memory
/// bounded by the number of apps and buckets, not by the run's length.
///
/// Fed the engine's memory changes in order; the value an app, the device or the store holds at
/// an instant is the last one set there, and a series has a point only where its value changes
/// (as the timeline's series in report.json).
public struct MemoryDigest {
    /// What the chart draws.
    public struct Drawn: Sendable {
        public var instants: [Microseconds]
        public var layers: [[Int64]]
        public var used: [StepPoint]
        public var lower: [StepPoint]
        /// The in-RAM compressor's pool (all 0 in a run without one).
        public var pool: [StepPoint] = []
    }

    private let span: Microseconds
    private let stackBuckets: Int
    /// The lower panel shows bytes past app memory (macOS) instead of the compressed store.
    private let excessOver: Bytes?
    private var instant: Microseconds = 0
    private var started = false
    private var appNow: [Int64]
    private var usedNow: Int64 = 0
    private var compressedNow: Int64 = 0
    private var poolNow: Int64 = 0
    private var poolLast: Int64?
    private var appLast: [Int64?]
    private var usedLast: Int64?
    private var lowerLast: Int64?
    private var touched: [Int] = []
    private var used: MinMaxReducer<Void>
    private var lower: MinMaxReducer<Void>
    private var pool: MinMaxReducer<Void>
    /// The used series reduced for the stack's instants, each with every app's bytes there.
    private var total: MinMaxReducer<[Int64]>
    private var atStart: [Int64] = []
    /// While the apps' series change at few enough instants, every point of them.
    private var smallTimes: Set<Microseconds>? = [0]
    private var smallSeries: [[StepPoint]]

    /// A digest for a run of `apps` apps (in the chart's order) lasting `durationUs`.
    public init(apps: Int, durationUs: Microseconds, device: Device, options: HTMLReport.Options = .init()) {
        span = max(1, durationUs)
        stackBuckets = MemoryChart.stackBuckets(options, apps: apps)
        excessOver = device.platform == .macos ? device.appMemory : nil
        appNow = Array(repeating: 0, count: apps)
        appLast = Array(repeating: nil, count: apps)
        smallSeries = Array(repeating: [], count: apps)
        used = MinMaxReducer(start: 0, end: span, buckets: options.seriesBuckets)
        lower = MinMaxReducer(start: 0, end: span, buckets: options.seriesBuckets)
        pool = MinMaxReducer(start: 0, end: span, buckets: options.seriesBuckets)
        total = MinMaxReducer(start: 0, end: span, buckets: stackBuckets)
    }

    /// Memory changed at `atUs` (`SimulationSink.memoryChanged`).
    public mutating func memoryChanged(atUs: Microseconds, app: Int, appBytes: Bytes, usedBytes: Bytes,
                                       compressedBytes: Bytes, compressorBytes: Bytes = 0) {
        if atUs != instant { close() }
        instant = atUs
        // A process that is not an app (`app` -1) changes only the device's figures.
        if app >= 0 {
            appNow[app] = appBytes
            touched.append(app)
        }
        usedNow = usedBytes
        compressedNow = compressedBytes
        poolNow = compressorBytes
    }

    /// The instant is over: its last values are final.
    private mutating func close() {
        let t = instant
        if started {
            // In place: a copy of `touched` would make the array copy itself when emptied.
            for k in touched.indices { closeApp(touched[k], at: t) }
        } else {
            for a in appNow.indices { closeApp(a, at: t) }
        }
        touched.removeAll(keepingCapacity: true)
        if !started { atStart = appNow }
        started = true
        if usedLast != usedNow {
            usedLast = usedNow
            let point = StepPoint(atUs: t, value: usedNow)
            used.add(point)
            total.add(point, appNow)
            if let limit = excessOver {
                let excess = max(0, usedNow - limit)
                if lowerLast != excess {
                    lowerLast = excess
                    lower.add(StepPoint(atUs: t, value: excess))
                }
            }
        }
        if excessOver == nil, lowerLast != compressedNow {
            lowerLast = compressedNow
            lower.add(StepPoint(atUs: t, value: compressedNow))
        }
        if poolLast != poolNow {
            poolLast = poolNow
            pool.add(StepPoint(atUs: t, value: poolNow))
        }
    }

    /// App `a`'s value at instant `t` is final.
    @inline(__always)
    private mutating func closeApp(_ a: Int, at t: Microseconds) {
        guard appLast[a] != appNow[a] else { return }
        appLast[a] = appNow[a]
        if smallTimes != nil {
            smallSeries[a].append(StepPoint(atUs: t, value: appNow[a]))
            smallTimes!.insert(t)
            if smallTimes!.count > 2 * stackBuckets {
                smallTimes = nil
                smallSeries = []
            }
        }
    }

    /// What the chart draws, once the run has ended.
    public mutating func finish() -> Drawn {
        close()
        let instants: [Microseconds]
        let layers: [[Int64]]
        if let smallTimes {
            instants = smallTimes.filter { $0 <= span }.sorted()
            layers = smallSeries.map { Downsample.values(of: $0, at: instants) }
        } else {
            let reduced = total.result()
            var at: [Microseconds: [Int64]] = [0: atStart]
            for (point, values) in reduced { at[point.atUs] = values }
            instants = at.keys.filter { $0 <= span }.sorted()
            layers = appNow.indices.map { a in instants.map { at[$0]![a] } }
        }
        return Drawn(instants: instants, layers: layers, used: used.result().map(\.0), lower: lower.result().map(\.0),
                     pool: pool.result().map(\.0))
    }
}
