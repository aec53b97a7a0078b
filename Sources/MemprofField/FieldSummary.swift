import MemprofCore

/// The field as MetricKit payloads describe it, per cell (app, device type, OS version): how many
/// device-days, exits a day by reason on each side with their 95% intervals, time in each state,
/// launches and resumes a day, and the peak and suspended memory with their spread. What
/// `memprof field` prints and writes as field.json (the Field format reference).
public struct FieldSummary: Sendable, Equatable {
    public static let schema = "memprof.field/1"
    /// Exits of one reason over a cell's days below this are given Garwood's exact interval.
    public static let fewExits = 10
    /// Cells with more days than this give their rates a normal interval from the days' sample
    /// deviation instead of the bootstrap (which costs resamples × days × statistics).
    public static let bootstrapDays = 4000

    /// A rate per device-day with its 95% interval and how the interval was taken.
    public struct Rate: Sendable, Equatable {
        public var total: Double
        public var perDay: Double
        public var low: Double
        public var high: Double
        public var method: Method

        public init(total: Double, perDay: Double, low: Double, high: Double, method: Method) {
            self.total = total
            self.perDay = perDay
            self.low = low
            self.high = high
            self.method = method
        }
    }

    public enum Method: String, Sendable, Equatable {
        /// Garwood's exact interval on the cell's total count, divided by its days.
        case garwood
        /// The percentile bootstrap over device-days.
        case bootstrap
        /// The mean ± 1.96 sample deviations ÷ √days (cells of more than `bootstrapDays` days).
        case normal
        /// A single day: no interval but Garwood's for a count, none for a time.
        case none
    }

    public struct ExitRate: Sendable, Equatable {
        /// `background` or `foreground`.
        public var side: String
        /// The MetricKit counter (`cumulativeMemoryPressureExitCount`).
        public var counter: String
        public var rate: Rate
    }

    /// A per-day quantity (seconds in a state, launches) over the days whose payloads have it.
    public struct Daily: Sendable, Equatable {
        public var key: String
        /// The days whose payloads give it (the others say nothing about it).
        public var days: Int
        public var rate: Rate
        /// The sample standard deviation over those days.
        public var standardDeviation: Double
    }

    public struct Peak: Sendable, Equatable {
        public var days: Int
        public var meanBytes: Double
        public var p50Bytes: Double
        public var p95Bytes: Double
        public var maxBytes: Double
        public var standardDeviationBytes: Double
    }

    public struct Cell: Sendable, Equatable {
        /// `metaData.bundleIdentifier` (`-` when the payloads do not say).
        public var app: String
        public var deviceType: String
        public var osVersion: String
        public var days: Int
        /// Every counter any payload of the cell writes, and every documented one, each side.
        public var exits: [ExitRate]
        /// Days with `applicationExitMetrics`: the exits' denominator.
        public var exitDays: Int
        public var time: [Daily]
        public var launches: [Daily]
        public var peak: Peak?
        /// The footprints at suspension of every day pooled: count, mean, sample deviation.
        public var suspended: SuspendedMemory?
        public var suspendedDays: Int
    }

    public var files: Int
    public var payloads: Int
    public var cells: [Cell]

    public init(files: Int, payloads: Int, cells: [Cell]) {
        self.files = files
        self.payloads = payloads
        self.cells = cells
    }

    public init(payloads: [MetricKitPayload], files: Int) {
        self.files = files
        self.payloads = payloads.count
        var groups: [String: [MetricKitPayload]] = [:]
        var order: [String] = []
        for p in payloads {
            let key = [p.bundleIdentifier ?? "-", p.deviceType, p.osVersion].joined(separator: "\u{0}")
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(p)
        }
        cells = order.sorted().map { Self.cell(groups[$0]!) }
    }

    /// The cell of `days` (one app's payloads), pooled whatever their device and OS: the first
    /// day's names label it. Not empty.
    public static func cell(_ days: [MetricKitPayload]) -> Cell {
        let first = days[0]
        // Exits: every day with the section, each counter a column (a counter left out is 0).
        let exitDays = days.compactMap(\.exits)
        var counters: [(side: String, name: String)] = []
        for (side, documented, pick) in [("background", MetricKitExits.backgroundCounters, { (e: MetricKitPayload.Exits) in e.background }),
                                         ("foreground", MetricKitExits.foregroundCounters, { (e: MetricKitPayload.Exits) in e.foreground })] {
            let seen = Set(exitDays.flatMap { pick($0).keys })
            let names = documented + seen.subtracting(documented).sorted()
            counters += names.map { (side, $0) }
        }
        let exitRows = exitDays.map { e in
            counters.map { Double(($0.side == "background" ? e.background : e.foreground)[$0.name] ?? 0) }
        }
        let exitRates = rates(exitRows, counts: true)
        let exits = exitRows.isEmpty ? [] : counters.indices.map { ExitRate(side: counters[$0].side, counter: counters[$0].name, rate: exitRates[$0]) }

        let time = dailies([("foregroundSeconds", { $0.time?.foregroundSeconds }), ("backgroundSeconds", { $0.time?.backgroundSeconds }),
                            ("backgroundAudioSeconds", { $0.time?.backgroundAudioSeconds }),
                            ("backgroundLocationSeconds", { $0.time?.backgroundLocationSeconds })], days, counts: false)
        let launches = dailies([("timeToFirstDraw", { $0.launches?.timeToFirstDraw.map(Double.init) }),
                                ("optimizedTimeToFirstDraw", { $0.launches?.optimizedTimeToFirstDraw.map(Double.init) }),
                                ("resumes", { $0.launches?.resumes.map(Double.init) }),
                                ("extendedLaunch", { $0.launches?.extendedLaunch.map(Double.init) })], days, counts: true)

        let peaks = days.compactMap(\.peakMemoryBytes).sorted()
        var peak: Peak?
        if !peaks.isEmpty {
            let mean = peaks.reduce(0, +) / Double(peaks.count)
            peak = Peak(days: peaks.count, meanBytes: mean, p50Bytes: FieldStatistics.quantile(peaks, 0.5),
                        p95Bytes: FieldStatistics.quantile(peaks, 0.95), maxBytes: peaks.last!, standardDeviationBytes: deviation(peaks, mean))
        }
        let averages = days.compactMap(\.suspendedMemory)
        let suspended = averages.isEmpty ? nil : MetricKitExport.pooled(averages.map {
            SuspendedMemory(sampleCount: $0.sampleCount, averageBytes: MetricKitExport.clamped($0.meanBytes),
                            standardDeviationBytes: MetricKitExport.clamped($0.standardDeviationBytes ?? 0))
        })
        return Cell(app: first.bundleIdentifier ?? "-", deviceType: first.deviceType, osVersion: first.osVersion, days: days.count,
                    exits: exits, exitDays: exitDays.count, time: time, launches: launches, peak: peak, suspended: suspended,
                    suspendedDays: averages.count)
    }

    /// Cells of a summary (field.json) pooled into one, labelled by the first: the days and
    /// totals added, each mean weighted by its days. An interval cannot be taken again without
    /// the days: a count whose pooled total is below ``fewExits`` gets Garwood's interval on that
    /// total; otherwise the cells' variances of their means (each from its interval's half-width
    /// over 1.96) are combined by their shares of the days into a normal interval. Suspended
    /// memory pools exactly (count, mean, deviation); the peak's mean and deviation pool exactly,
    /// its quantiles and maximum are the largest of the cells'. A single cell is kept as it is.
    public static func pooled(_ cells: [Cell]) -> Cell {
        guard cells.count > 1 else { return cells[0] }
        func pool(_ parts: [(days: Int, rate: Rate)], counts: Bool) -> Rate {
            let n = Double(parts.reduce(0) { $0 + $1.days })
            let total = parts.reduce(0) { $0 + $1.rate.total }
            let mean = n > 0 ? total / n : 0
            if counts && total < Double(fewExits) && total == total.rounded() {
                let (low, high) = FieldStatistics.garwood(Int(total))
                return Rate(total: total, perDay: mean, low: low / n, high: high / n, method: .garwood)
            }
            let variance = parts.reduce(0.0) { sum, part in
                let share = Double(part.days) / n, half = (part.rate.high - part.rate.low) / (2 * 1.959964)
                return sum + share * share * half * half
            }
            let half = 1.959964 * variance.squareRoot()
            return Rate(total: total, perDay: mean, low: max(0, mean - half), high: mean + half, method: .normal)
        }
        var exitKeys: [(side: String, counter: String)] = []
        for cell in cells {
            for e in cell.exits where !exitKeys.contains(where: { $0 == (e.side, e.counter) }) { exitKeys.append((e.side, e.counter)) }
        }
        let exits = exitKeys.map { key in
            ExitRate(side: key.side, counter: key.counter, rate: pool(cells.filter { $0.exitDays > 0 }.map { cell in
                (cell.exitDays, cell.exits.first { ($0.side, $0.counter) == key }?.rate
                    ?? Rate(total: 0, perDay: 0, low: 0, high: 0, method: .none))
            }, counts: true))
        }
        func dailies(_ pick: (Cell) -> [Daily], counts: Bool) -> [Daily] {
            var keys: [String] = []
            for cell in cells { for d in pick(cell) where !keys.contains(d.key) { keys.append(d.key) } }
            return keys.map { key in
                let parts = cells.compactMap { pick($0).first { $0.key == key } }
                let rate = pool(parts.map { ($0.days, $0.rate) }, counts: counts)
                let sd = MetricKitExport.pooledDeviation(parts.map { (count: $0.days, mean: $0.rate.perDay, deviation: $0.standardDeviation) })
                return Daily(key: key, days: parts.reduce(0) { $0 + $1.days }, rate: rate, standardDeviation: sd)
            }
        }
        let peaks = cells.compactMap(\.peak)
        var peak: Peak?
        if !peaks.isEmpty {
            let days = peaks.reduce(0) { $0 + $1.days }
            let mean = peaks.reduce(0.0) { $0 + Double($1.days) * $1.meanBytes } / Double(days)
            peak = Peak(days: days, meanBytes: mean, p50Bytes: peaks.map(\.p50Bytes).max()!, p95Bytes: peaks.map(\.p95Bytes).max()!,
                        maxBytes: peaks.map(\.maxBytes).max()!,
                        standardDeviationBytes: MetricKitExport.pooledDeviation(peaks.map { ($0.days, $0.meanBytes, $0.standardDeviationBytes) }))
        }
        let suspended = cells.compactMap(\.suspended)
        return Cell(app: cells[0].app, deviceType: cells[0].deviceType, osVersion: cells[0].osVersion,
                    days: cells.reduce(0) { $0 + $1.days }, exits: exitKeys.isEmpty ? [] : exits,
                    exitDays: cells.reduce(0) { $0 + $1.exitDays }, time: dailies(\.time, counts: false),
                    launches: dailies(\.launches, counts: true), peak: peak,
                    suspended: suspended.isEmpty ? nil : MetricKitExport.pooled(suspended),
                    suspendedDays: cells.reduce(0) { $0 + $1.suspendedDays })
    }

    /// Per-day quantities: each over the days whose payloads give it.
    static func dailies(_ keys: [(String, (MetricKitPayload) -> Double?)], _ days: [MetricKitPayload], counts: Bool) -> [Daily] {
        keys.compactMap { key, value in
            let values = days.compactMap(value)
            guard !values.isEmpty else { return nil }
            let rate = rates(values.map { [$0] }, counts: counts)[0]
            return Daily(key: key, days: values.count, rate: rate, standardDeviation: deviation(values, rate.perDay))
        }
    }

    /// The mean of each column of `rows` (one a day) with its 95% interval: Garwood's for a
    /// count whose total is below `fewExits`, else the bootstrap over days (the normal interval
    /// past `bootstrapDays` days).
    public static func rates(_ rows: [[Double]], counts: Bool) -> [Rate] {
        guard let width = rows.first?.count else { return [] }
        let n = Double(rows.count)
        let totals = (0..<width).map { c in rows.reduce(0) { $0 + $1[c] } }
        let needsResampling = (0..<width).contains { !(counts && totals[$0] < Double(fewExits)) }
        var boot: [(low: Double, high: Double)] = []
        if rows.count > 1 && rows.count <= bootstrapDays && needsResampling { boot = FieldStatistics.bootstrapMeans(rows) }
        return (0..<width).map { c in
            let mean = totals[c] / n
            if counts && (totals[c] < Double(fewExits) || rows.count == 1) && totals[c] == totals[c].rounded() {
                let (low, high) = FieldStatistics.garwood(Int(totals[c]))
                return Rate(total: totals[c], perDay: mean, low: low / n, high: high / n, method: .garwood)
            }
            if rows.count == 1 { return Rate(total: totals[c], perDay: mean, low: mean, high: mean, method: .none) }
            if !boot.isEmpty { return Rate(total: totals[c], perDay: mean, low: boot[c].low, high: boot[c].high, method: .bootstrap) }
            let half = 1.959964 * deviation(rows.map { $0[c] }, mean) / n.squareRoot()
            return Rate(total: totals[c], perDay: mean, low: max(0, mean - half), high: mean + half, method: .normal)
        }
    }

    /// The sample standard deviation (0 for fewer than two values).
    static func deviation(_ values: [Double], _ mean: Double) -> Double {
        guard values.count > 1 else { return 0 }
        return (values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)).squareRoot()
    }
}
