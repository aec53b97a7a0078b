import MemprofCore
import MemprofField
import MemprofFleet
import MemprofInput
import MemprofOutput
import MemprofWorkload

/// A calibration set up: the sweep's cells matched to the field's days, what the field sets
/// directly, the statistics each cell is compared on, and the parameters. Made before anything
/// runs, so every error in the sweep, its `calibrate:` section or the field comes first.
public struct CalibrationProblem: Sendable {
    /// One cell of the sweep and the field's days of its device.
    public struct Cell: Sendable {
        public var index: Int
        public var label: String
        public var overrides: [WorkloadOverride]
        /// The device type payloads name (the field's, or the device's own identity without field).
        public var deviceType: String
        public var osVersions: [String]
        public var role: Calibration.Role
        /// The field's summary of the cell's days (nil for `noField`).
        public var field: FieldSummary.Cell?
        /// Keys set from the field for this cell (its `per:` keys): from its own days, or for a
        /// `noField` cell the pooled values of every matched day (``CalibrationProblem/measured``).
        public var measured: [(override: WorkloadOverride, source: String)]
        /// The statistics, in order: (side, counter) of every exit counter.
        public var statistics: [(side: String, counter: String)]
    }

    public var sweep: SweepFile
    public var spec: SweepFile.Calibrate
    public var app: String
    public var bundleIdentifier: String
    public var cells: [Cell]
    /// Keys set from the field pooled over every matched day: what a cell without field days
    /// takes. Each cell's own are its ``Cell/measured``, written into the sweep's `per:` (after
    /// its `set:`, before the parameters).
    public var measured: [(override: WorkloadOverride, source: String)]
    public var payloadCount: Int
    public var appDays: Int
    public var unmatched: [Calibration.Unmatched]
    public var fieldPaths: [String]

    public var fitCells: [Int] { cells.filter { $0.role == .fit }.map(\.index) }
    public var matchedDays: Int { cells.reduce(0) { $0 + ($1.field?.days ?? 0) } }

    /// The exit reasons a run's metrics name (`apps.<app>.exits.<reason>`).
    static let reasons = ExitReason.allCases.map(\.rawValue)

    /// Matches the sweep to the field.
    ///
    /// - Throws: `WorkloadError` located in the sweep file (its `calibrate:` section, the matrix,
    ///   a parameter whose values the workload refuses), `BadInput` when the field has nothing to fit.
    public init(sweep: SweepFile, payloads: [MetricKitPayload], fieldPaths: [String]) throws {
        try self.init(sweep: sweep, field: CalibrationField(payloads: payloads), fieldPaths: fieldPaths)
    }

    /// Matches the sweep to a field of payloads or of field.json's cells.
    public init(sweep: SweepFile, field: CalibrationField, fieldPaths: [String]) throws {
        guard let spec = sweep.calibrate else {
            throw WorkloadError(file: sweep.file, line: 0, column: 0, keyPath: "calibrate",
                                message: "the sweep has no calibrate: section; declare the app and the parameters to fit "
                                    + "(calibrate: {app: …, parameters: [{key: …, low: …, high: …}]})")
        }
        self.sweep = sweep
        self.spec = spec
        self.fieldPaths = fieldPaths
        payloadCount = field.payloadCount
        app = spec.app
        let here = WorkloadOverride.Origin(file: sweep.file, keyLine: spec.line, keyColumn: spec.column,
                                           valueLine: spec.line, valueColumn: spec.column)
        func located(_ message: String, key: String = "calibrate") -> WorkloadError {
            WorkloadError(file: sweep.file, line: spec.line, column: spec.column, keyPath: key, message: message)
        }
        // The matrix may only vary the device: cells are matched to the field by device.
        if let extra = sweep.axes.first(where: { $0.keyPath != "device" && $0.keyPath != "device.preset" }) ?? sweep.axes.dropFirst().first {
            let o = extra.values[0].origin
            throw WorkloadError(file: sweep.file, line: o.keyLine, column: o.keyColumn, keyPath: "matrix.\(extra.keyPath)",
                                message: "a calibration matches cells to the field by device: its matrix may vary device "
                                    + "(or device.preset) only; set other keys with set:")
        }

        // The app's payloads.
        let bundles = Set(field.groups.compactMap(\.app))
        if let wanted = spec.bundleIdentifier {
            guard bundles.contains(wanted) else {
                throw located("no payload of \(wanted) (metaData.bundleIdentifier) in the field; it has "
                    + Self.listed(bundles.sorted()), key: "calibrate.bundleIdentifier")
            }
            bundleIdentifier = wanted
        } else if bundles.count == 1 {
            bundleIdentifier = bundles.first!
        } else if bundles.contains(spec.app) {
            bundleIdentifier = spec.app
        } else {
            throw located("the field has payloads of \(bundles.count) apps and none is '\(spec.app)': name the team's "
                + "app with calibrate.bundleIdentifier (\(Self.listed(bundles.sorted())))", key: "calibrate.app")
        }
        let bundle = bundleIdentifier
        // The app's groups of days, by index into the field's.
        let days = field.groups.indices.filter { field.groups[$0].app == bundle }
        appDays = days.reduce(0) { $0 + field.groups[$1].days }

        // Cells: the sweep's device matrix, or one cell per preset the field's devices are.
        var sweep = sweep
        var byPreset: [String: Int] = [:]
        var unknown: [String: Calibration.Unmatched] = [:]
        for day in days.map({ field.groups[$0] }) {
            if let preset = FieldProduct.named(day.deviceType)?.preset {
                byPreset[preset, default: 0] += day.days
            } else {
                unknown["\(day.deviceType)\u{0}\(day.osVersion)", default: .init(deviceType: day.deviceType, osVersion: day.osVersion, days: 0)].days += day.days
            }
        }
        // A device axis sets `device.preset`, so that what is set under `device.` (a parameter such
        // as device.systemReserved, the sweep's set:) holds in every cell: `device: NAME` would
        // replace the whole device. Values written as mappings are left as they are.
        if let axis = sweep.axes.first, axis.keyPath == "device",
           axis.values.allSatisfy({ !$0.value.hasPrefix("{") && !$0.value.hasPrefix("[") }) {
            sweep.axes[0] = SweepFile.Axis(keyPath: "device.preset", values: axis.values.map {
                WorkloadOverride(keyPath: "device.preset", value: $0.value, origin: $0.origin)
            })
            sweep.per = sweep.per.map { SweepFile.Per(keyPath: $0.keyPath == "device" ? "device.preset" : $0.keyPath, values: $0.values) }
        }
        if sweep.axes.isEmpty {
            guard !byPreset.isEmpty else {
                throw BadInput("none of the field's device types (\(Self.listed(Set(days.map { field.groups[$0].deviceType }).sorted()))) is a device "
                    + "memprof knows (memprof list devices); give the sweep a matrix of devices")
            }
            let presets = byPreset.keys.sorted { (byPreset[$0]!, $1) > (byPreset[$1]!, $0) }
            sweep.axes = [SweepFile.Axis(keyPath: "device.preset", values: presets.map { WorkloadOverride(keyPath: "device.preset", value: $0, origin: here) })]
        }

        // What the field measures directly: each cell's from its own days, pooled over every
        // matched day for a cell without any.
        let plan = try SweepPlan(sweep: sweep)
        guard plan.base.workload.apps.contains(where: { $0.id == spec.app }) else {
            throw located("the workload has no app '\(spec.app)'; it has \(Self.listed(plan.base.workload.apps.map(\.id)))",
                          key: "calibrate.app")
        }
        var matched: [Int: [Int]] = [:]
        var claimed = Set<String>()
        for cell in plan.cells {
            let device = cell.workload.workload.device
            let name = device.name.hasSuffix(" (modified)") ? String(device.name.dropLast(" (modified)".count)) : device.name
            let identity = FieldIdentity.of(device)
            let mine = days.filter { g in
                FieldProduct.named(field.groups[g].deviceType)?.preset == name || field.groups[g].deviceType == identity.product
            }
            matched[cell.index] = mine
            claimed.formUnion(mine.map { "\(field.groups[$0].deviceType)\u{0}\(field.groups[$0].osVersion)" })
        }
        for day in days.map({ field.groups[$0] })
        where !claimed.contains("\(day.deviceType)\u{0}\(day.osVersion)") && FieldProduct.named(day.deviceType) != nil {
            unknown["\(day.deviceType)\u{0}\(day.osVersion)", default: .init(deviceType: day.deviceType, osVersion: day.osVersion, days: 0)].days += day.days
        }
        unmatched = unknown.values.sorted { ($0.deviceType, $0.osVersion) < ($1.deviceType, $1.osVersion) }
        let pooledDays = plan.cells.map { matched[$0.index] ?? [] }
        guard pooledDays.contains(where: { !$0.isEmpty }) else {
            throw BadInput("no day of the field is on a device the sweep runs (\(plan.cells.map(\.label).joined(separator: "; "))); "
                + "the field's devices: \(Self.listed(Set(days.map { field.groups[$0].deviceType }).sorted()))")
        }
        let pooled = field.pooled(pooledDays)
        // Each cell with field days runs the OS most of them ran; its background-task limit is that iOS's.
        let cellOS = plan.cells.map { cell in
            cell.workload.workload.device.platform == .ios && !(matched[cell.index] ?? []).isEmpty
                ? Self.osVersion(of: (matched[cell.index] ?? []).map { field.groups[$0] }, origin: here) : nil
        }
        func onFieldOS<T>(_ body: () throws -> T) throws -> T {
            do {
                return try body()
            } catch let error as WorkloadError where error.keyPath.hasPrefix("device") {
                throw located("a cell cannot run the OS the field's days of its device ran: \(error.message)")
            }
        }
        // The sweep loaded once on each OS the field sets (cells are loaded whole).
        var onOS: [String: SweepPlan] = [:]
        for os in cellOS.compactMap({ $0?.0 }) where onOS[os.value] == nil {
            onOS[os.value] = try onFieldOS { try SweepPlan(sweep: sweep, overrides: [os]) }
        }
        let taskLimitUs = plan.cells.filter { $0.workload.workload.device.platform == .ios }.map { cell in
            (cellOS[cell.index].flatMap { onOS[$0.0.value]?.cells[cell.index] } ?? cell).workload.workload.policy.backgroundTaskLimitUs
        }.min()
        let measured = try Self.measured(pooled, app: spec.app, sweep: sweep, plan: plan, taskLimitUs: taskLimitUs, origin: here)
        let summaries = plan.cells.map { cell in matched[cell.index].flatMap { $0.isEmpty ? nil : field.pooled([$0]) } }
        let cellMeasured = try plan.cells.map { cell in
            guard let summary = summaries[cell.index] else {
                return measured.map { ($0.0, $0.1 + "; pooled over every matched day: the field has no day of this cell") }
            }
            return try Self.measured(summary, app: spec.app, sweep: sweep, plan: plan, taskLimitUs: taskLimitUs, origin: here)
                + (cellOS[cell.index].map { [$0] } ?? [])
        }
        for p in spec.parameters {
            for per in sweep.per {
                for entry in per.values where entry.overrides.contains(where: { SweepFile.overlaps($0.keyPath, p.key) }) {
                    throw WorkloadError(file: sweep.file, line: p.origin.keyLine, column: p.origin.keyColumn, keyPath: "calibrate.parameters",
                                        message: "'\(p.key)' is set per cell (per.\(per.keyPath).\(entry.value)); "
                                            + "a parameter is one value for every cell")
                }
            }
            if let m = (measured + cellMeasured.flatMap { $0 }).first(where: { $0.0.keyPath == p.key }) {
                throw WorkloadError(file: sweep.file, line: p.origin.keyLine, column: p.origin.keyColumn, keyPath: "calibrate.parameters",
                                    message: "'\(p.key)' is set from the field (\(m.1)); a parameter is a key the field cannot see")
            }
        }
        self.measured = measured
        // Each cell's measured keys in its device's `per:` entry, in place of the sweep's own for those keys.
        if let axis = sweep.axes.first {
            var per = sweep.per.first { $0.keyPath == axis.keyPath } ?? SweepFile.Per(keyPath: axis.keyPath, values: [])
            per.values = plan.cells.compactMap { cell in
                guard let value = cell.overrides.first(where: { $0.keyPath == axis.keyPath })?.value else { return nil }
                let keys = cellMeasured[cell.index].map(\.0)
                let own = per.values.first { $0.value == value }?.overrides.filter { o in !keys.contains { $0.keyPath == o.keyPath } } ?? []
                return own.isEmpty && keys.isEmpty ? nil : SweepFile.Per.Entry(value: value, overrides: own + keys)
            }
            sweep.per = [per]
        }
        _ = try onFieldOS { try SweepPlan(sweep: sweep) }
        self.sweep = sweep

        // Every parameter's ends load in every cell (errors located at the parameter).
        for p in spec.parameters {
            for end in [p.low, p.high] { _ = try SweepPlan(sweep: sweep, overrides: [p.override(end)]) }
        }

        let deviceAxis = sweep.axes.first
        cells = plan.cells.map { cell in
            let mine = matched[cell.index] ?? []
            let summary = summaries[cell.index]
            let value = cell.overrides.first { $0.keyPath == deviceAxis?.keyPath }?.value
            let role: Calibration.Role = summary == nil ? .noField : spec.holdOut.contains(value ?? "") ? .heldOut : .fit
            let statistics = summary.map { $0.exits.map { (side: $0.side, counter: $0.counter) } }
                ?? (MetricKitExits.backgroundCounters.map { ("background", $0) } + MetricKitExits.foregroundCounters.map { ("foreground", $0) })
            let identity = FieldIdentity.of(cell.workload.workload.device)
            return Cell(index: cell.index, label: cell.label, overrides: cell.overrides,
                        deviceType: Set(mine.map { field.groups[$0].deviceType }).sorted().first ?? identity.product,
                        osVersions: Set(mine.map { field.groups[$0].osVersion }).sorted(), role: role, field: summary,
                        measured: cellMeasured[cell.index], statistics: statistics)
        }
        guard !fitCells.isEmpty else {
            throw located("every cell with field days is held out (holdOut); the fit needs at least one", key: "calibrate.holdOut")
        }
        guard cells.contains(where: { $0.role == .fit && ($0.field?.exitDays ?? 0) > 0 }) else {
            throw BadInput("the field's payloads of \(bundle) on the fitted devices have no applicationExitMetrics: "
                + "there are no exit rates to fit")
        }
    }

    /// The OS a cell runs: the `metaData.osVersion` most of its days ran (by days; a tie goes to
    /// the later version), as a workload writes it (`iPhone OS 17.5 (21F79)` is `iOS 17.5 (21F79)`).
    /// The cell's other versions are pooled into it, and calibration.json lists them.
    static func osVersion(of groups: [CalibrationField.Group], origin: WorkloadOverride.Origin) -> (WorkloadOverride, String)? {
        var days: [String: Int] = [:]
        for g in groups { days[g.osVersion, default: 0] += g.days }
        let total = days.values.reduce(0, +)
        guard let (version, count) = days.max(by: { ($0.value, $0.key) < ($1.value, $1.key) }), total > 0 else { return nil }
        var written = version
        for prefix in ["iPhone OS ", "iPadOS "] where written.hasPrefix(prefix) { written = "iOS " + written.dropFirst(prefix.count) }
        guard written.hasPrefix("iOS ") else { return nil }
        let share = days.count == 1 ? "every one of its \(total == 1 ? "1 day" : "\(total) days")" : "\(count) of its \(total) days (\(days.count) versions pooled)"
        return (WorkloadOverride(keyPath: "device.osVersion", value: written, origin: origin), "metaData.osVersion of \(share)")
    }

    /// What one summary of the field (a cell's days, or every matched day pooled) measures of
    /// the app: its peak and average suspended memory, and its use (``sessions(_:app:sweep:plan:taskLimitUs:origin:)``).
    static func measured(_ summary: FieldSummary.Cell, app: String, sweep: SweepFile, plan: SweepPlan, taskLimitUs: Microseconds?,
                         origin: WorkloadOverride.Origin) throws -> [(WorkloadOverride, String)] {
        var out: [(WorkloadOverride, String)] = []
        if let peak = summary.peak, peak.meanBytes > 0 {
            out.append((WorkloadOverride(keyPath: "apps.\(app).peakMemoryUsage", value: "\(Int64(peak.meanBytes.rounded()))B", origin: origin),
                        "the mean of \(peak.days) days' memoryMetrics.peakMemoryUsage"))
        }
        if let s = summary.suspended, s.sampleCount > 0, s.averageBytes > 0 {
            out.append((WorkloadOverride(keyPath: "apps.\(app).averageSuspendedMemory", value: "\(s.averageBytes)B", origin: origin),
                        "memoryMetrics.averageSuspendedMemory over \(s.sampleCount) suspensions on \(summary.days == 1 ? "1 day" : "\(summary.days) days")"))
        }
        return out + (try sessions(summary, app: app, sweep: sweep, plan: plan, taskLimitUs: taskLimitUs, origin: origin))
    }

    /// The app's use as the field measures it, as `apps.<app>.sessions`: sessions a day are its
    /// launches (`histogrammedTimeToFirstDrawKey`) and resumes (`histogrammedResumeTime`) a day,
    /// each as long as its foreground time a day (`cumulativeForegroundTime`) over them, and
    /// followed by its background time a day (`cumulativeBackgroundTime`) over them
    /// (`sessions.background`), at most `taskLimitUs` (the background-task limit the app's task
    /// runs under; nil: none): the source says so when the field's is longer. None when the field
    /// lacks launches or foreground time. An app the workload's switches pick
    /// (`generate.weights`) is given weight 0 there: its sessions alone open it.
    static func sessions(_ pooled: FieldSummary.Cell, app: String, sweep: SweepFile, plan: SweepPlan, taskLimitUs: Microseconds?,
                         origin: WorkloadOverride.Origin) throws -> [(WorkloadOverride, String)] {
        let counts = pooled.launches.filter { $0.key == "timeToFirstDraw" || $0.key == "resumes" }
        guard let foreground = pooled.time.first(where: { $0.key == "foregroundSeconds" }), foreground.rate.perDay > 0,
              !counts.isEmpty else { return [] }
        let perDay = counts.reduce(0) { $0 + $1.rate.perDay }
        let perDayMilli = Int64((perDay * 1000).rounded())
        guard perDayMilli > 0 else { return [] }
        let lengthUs = Int64((foreground.rate.perDay * 1e6 * 1000 / Double(perDayMilli)).rounded())
        let duration = plan.base.workload.durationUs
        func over(_ what: String, _ perDayUs: Double) -> WorkloadError {
            WorkloadError(file: sweep.file, line: origin.keyLine, column: origin.keyColumn, keyPath: "calibrate.app",
                          message: "the field's \(app) is \(what) \(Format.duration(Int64(perDayUs))) a day, "
                              + "more than a run of the workload (\(Format.duration(duration))); a run is a device-day: "
                              + "give the workload a duration of a day")
        }
        guard Double(lengthUs) * Double(perDayMilli) / 1000 < Double(duration) else { throw over("in front", foreground.rate.perDay * 1e6) }
        func days(_ n: Int) -> String { n == 1 ? "1 day" : "\(n) days" }
        let text = String(format: "%.3f", Double(perDayMilli) / 1000)
        let launches = counts.map { "\($0.key == "resumes" ? "resumes" : "launches") over \(days($0.days))" }
        var out: [(WorkloadOverride, String)] = [
            (WorkloadOverride(keyPath: "apps.\(app).sessions.perDay", value: text, origin: origin),
             "applicationLaunchMetrics: \(launches.joined(separator: " and ")), a day"),
            (WorkloadOverride(keyPath: "apps.\(app).sessions.length", value: "\(lengthUs)us", origin: origin),
             "applicationTimeMetrics.cumulativeForegroundTime over \(days(foreground.days)) "
                + "(\(Int(foreground.rate.perDay.rounded())) s a day) over the sessions a day"),
        ]
        if let background = pooled.time.first(where: { $0.key == "backgroundSeconds" }), background.rate.perDay > 0 {
            let fieldUs = Int64((background.rate.perDay * 1e6 * 1000 / Double(perDayMilli)).rounded())
            let setUs = min(fieldUs, taskLimitUs ?? fieldUs)
            guard Double(lengthUs + setUs) * Double(perDayMilli) / 1000 < Double(duration) else {
                throw over("in front and in the background", (foreground.rate.perDay * 1e6) + Double(setUs) * Double(perDayMilli) / 1000)
            }
            var source = "applicationTimeMetrics.cumulativeBackgroundTime over \(days(background.days)) "
                + "(\(Int(background.rate.perDay.rounded())) s a day) over the sessions a day"
            if setUs < fieldUs, let limit = taskLimitUs {
                // The task cannot outlive the limit: the rest is background time no key states.
                let rest = Double(fieldUs - setUs) * Double(perDayMilli) / 1000
                source += ", \(Format.duration(fieldUs)) a session: more than the \(Format.duration(limit)) background-task limit "
                    + "of the sweep's devices, so set to the limit; the other \(Format.duration(Int64(rest))) a day is background "
                    + "time the workload does not state (audio, location, BGTaskScheduler tasks, fetch, push) and stays a comparison"
            }
            if setUs > 0 {
                out.append((WorkloadOverride(keyPath: "apps.\(app).sessions.background", value: "\(setUs)us", origin: origin), source))
            }
        }
        if let index = plan.base.workload.apps.firstIndex(where: { $0.id == app }),
           plan.base.workload.generate?.weights.contains(where: { $0.app == index && $0.weight > 0 }) == true {
            // The switches pick the app: by the file's weights, or by default (every app). Without
            // weights in the file the default leaves out an app with sessions by itself.
            var trial = sweep
            trial.set += out.map(\.0)
            if (try? SweepPlan(sweep: trial)) == nil {
                out.append((WorkloadOverride(keyPath: "generate.weights.\(app)", value: "0", origin: origin),
                            "its sessions open it, not the switches"))
            }
        }
        return out
    }

    /// The background-task limit `sessions.background` runs under: the smallest of the plan's
    /// iOS cells (each cell's device's era under `xnu`, the policy's own under `seed-2015`); nil
    /// when no cell is an iOS device.
    static func listed(_ names: [String]) -> String {
        names.isEmpty ? "none" : names.prefix(10).joined(separator: ", ") + (names.count > 10 ? " and \(names.count - 10) more" : "")
    }

    /// The metrics of a run an evaluation reads: the app's exits by reason (all, and those from
    /// the foreground) and its time in each state.
    var metricNames: [String] {
        Self.reasons.map { "apps.\(app).exits.\($0)" } + Self.reasons.map { "apps.\(app).foregroundExits.\($0)" }
            + ["active", "inactive", "background"].map { "apps.\(app).timeInStateUs.\($0)" }
    }

    /// One day's statistics of `cell` from its metrics (in ``metricNames`` order): each exit
    /// counter's count (an exit from the foreground adds to `MXForegroundExitData`'s counter of
    /// its reason, one from the background to `MXBackgroundExitData`'s, as the MetricKit export
    /// counts them), then foreground and background seconds.
    func day(_ values: [Int64], cell: Cell) -> (counts: [Double], times: [Double]) {
        let n = Self.reasons.count
        var background: [String: Double] = [:], foreground: [String: Double] = [:]
        for (i, reason) in Self.reasons.enumerated() {
            let all = max(values[i], 0), inForeground = min(max(values[n + i], 0), all)
            if inForeground > 0 { foreground[MetricKitExits.foregroundCounter(reason), default: 0] += Double(inForeground) }
            if all - inForeground > 0 { background[MetricKitExits.backgroundCounter(reason), default: 0] += Double(all - inForeground) }
        }
        let counts = cell.statistics.map { ($0.side == "background" ? background : foreground)[$0.counter] ?? 0 }
        let t = values[(2 * n)...].map { Double(max($0, 0)) / 1e6 }
        return (counts, [t[t.startIndex] + t[t.startIndex + 1], t[t.startIndex + 2]])
    }
}
