import MemprofCore
import MemprofInput

/// How much work a workload describes, counted before anything runs, so that a small file that
/// asks for an absurd amount of work (`generate: {switchEvery: 1us}` over a day, a million
/// years of growth ticks, terabytes of sampled work) is refused up front with a sentence saying
/// how much it describes, instead of exhausting memory or time.
///
/// Occurrences are the things the simulator schedules: script entries, generated app switches and
/// home presses, background fetches, VoIP keep-alives and the once-a-second growth of the
/// foreground app. Each is counted at its most frequent; the real run schedules at most that many.
public struct WorkEstimate: Sendable, Equatable {
    /// One source of occurrences: what it is, in words, and how many it can schedule.
    public struct Source: Sendable, Equatable {
        public var keyPath: String
        public var what: String
        public var count: Double
    }

    public var sources: [Source]
    /// Bytes processed by real (sampled) work kernels over the run, at most.
    public var workBytes: Double
    public var workKeyPath: String?

    public var occurrences: Double { sources.reduce(0) { $0 + $1.count } }

    /// The limits a run is held to, each overridable on the command line.
    public struct Limits: Sendable, Equatable {
        /// `--max-occurrences`: scheduled occurrences of one run.
        public var occurrences: Int
        /// `--max-work`: bytes of real work (kernels) of one run.
        public var workBytes: Int64

        public init(occurrences: Int = 5_000_000, workBytes: Int64 = 64 * .gigabyte) {
            self.occurrences = occurrences
            self.workBytes = workBytes
        }

        public static let `default` = Limits()
    }

    public init(_ workload: Workload) {
        let duration = Double(workload.durationUs)
        var sources = [Source(keyPath: "script", what: "script entries", count: Double(workload.script.count))]
        if let g = workload.generate {
            if g.switchEveryUs > 0, g.weights.contains(where: { $0.weight > 0 }) {
                // Gaps are drawn from half the mean upwards: at most twice the mean count.
                sources.append(Source(keyPath: "generate.switchEvery", what: "app switches",
                                      count: duration / Double(max(1, g.switchEveryUs / 2))))
            }
            if let home = g.homeEveryUs, home > 0 {
                sources.append(Source(keyPath: "generate.homeEvery", what: "home presses",
                                      count: duration / Double(max(1, home / 2))))
            }
        }
        // Every script entry and generated action can send an app to the background once.
        let actions = sources.reduce(0) { $0 + $1.count }
        var workBytes = 0.0
        var workKeyPath: String?
        var heaviest = 0.0
        for app in workload.apps {
            var fetches = 0.0
            if let interval = app.fetch?.intervalUs, interval > 0, app.modes.contains(.fetch) {
                fetches = duration / Double(interval)
                sources.append(Source(keyPath: "apps.\(app.id).fetch.interval", what: "background fetches", count: fetches))
            }
            if let voip = app.voip, app.modes.contains(.voip) {
                let every = max(voip.keepaliveUs, workload.policy.voipMinKeepaliveUs, 1)
                sources.append(Source(keyPath: "apps.\(app.id).voip", what: "VoIP keep-alives", count: duration / Double(every)))
            }
            // Handler runs: a fetch per interval, a push or background task per script entry at most.
            let runs: [(String, HandlerSpec?, Double)] = [
                ("fetch", app.fetch?.handler, fetches),
                ("push", app.push, Double(workload.script.count)),
                ("backgroundTask", app.backgroundTask?.handler, actions),
            ]
            for (kind, handler, count) in runs {
                guard let work = handler?.work else { continue }
                let bytes = Double(work.sizeBytes) * count
                workBytes += bytes
                if bytes > heaviest { heaviest = bytes; workKeyPath = "apps.\(app.id).\(kind).work.size" }
            }
        }
        if workload.apps.contains(where: { $0.growth != nil }) {
            sources.append(Source(keyPath: "apps.*.growth", what: "growth steps (one a second in the foreground)",
                                  count: duration / 1_000_000))
        }
        self.sources = sources
        self.workBytes = workBytes
        self.workKeyPath = workKeyPath
    }

    /// Refuses a workload that describes more than `limits` allow.
    ///
    /// - Throws: `WorkloadError` (MemprofInput) naming the file, the key of the largest source, how much work
    ///   the workload describes and the flag that raises the limit.
    public func check(_ limits: Limits, file: String) throws {
        if occurrences > Double(limits.occurrences) {
            let largest = sources.max { $0.count < $1.count }!
            let parts = sources.filter { $0.count >= 1 }.sorted { $0.count > $1.count }.prefix(3)
                .map { "\(Self.words($0.count)) \($0.what)" }.joined(separator: ", ")
            throw WorkloadError(file: file, line: 0, column: 0, keyPath: largest.keyPath, message:
                "the workload describes about \(Self.words(occurrences)) scheduled occurrences (\(parts)); "
                + "memprof runs at most \(Self.words(Double(limits.occurrences))) (raise it with --max-occurrences)")
        }
        if workBytes > Double(limits.workBytes) {
            throw WorkloadError(file: file, line: 0, column: 0, keyPath: workKeyPath ?? "", message:
                "the workload describes up to \(Self.size(workBytes)) of real work for its kernels to process; "
                + "memprof runs at most \(Self.size(Double(limits.workBytes))) (raise it with --max-work)")
        }
    }

    /// `86,400,000,000`, or `1.2e+21` past what a whole number shows well.
    static func words(_ x: Double) -> String {
        guard x < 1e15 else { return String(format: "%.2g", x) }
        let digits = String(Int64(x.rounded()))
        var out = ""
        for (i, c) in digits.reversed().enumerated() {
            if i > 0 && i % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return String(out.reversed())
    }

    static func size(_ bytes: Double) -> String {
        bytes < 9e15 ? Format.bytes(Int64(bytes)) : String(format: "%.2g bytes", bytes)
    }
}
