import MemprofOutput
import MemprofCore
import MemprofReport

/// The memory-over-time chart of report.html and of the compare page (one chart for both): the
/// run's per-app stacked areas of resident memory, its used line, app memory and the warning and
/// critical levels, eviction / compression / warning / kill markers, a pressure strip, and a
/// panel below for the compressed store (iOS) or swap (macOS). With a `base` run (compare), the
/// base's used line, pressure strip and markers are drawn over the same axes, and each app's
/// resident memory in both runs can be shown on its own.
///
/// Drawn in SVG user units on a 1000-wide canvas. Everything that moves with time sits in one
/// group (`#zoom`) that the page's script scales along x when a range is selected; strokes do not
/// scale (`vector-effect`), and the time axis is redrawn by the script.
public struct MemoryChart {
    static let width = 1000.0
    static let left = 64.0
    static let right = 990.0
    static let mainTop = 18.0
    static let mainBottom = 286.0
    static let stripTop = 289.0
    static let stripBottom = 295.0
    static let baseStripTop = 297.0
    static let baseStripBottom = 303.0
    static let lowerTop = 326.0
    static let lowerBottom = 380.0
    static let height = 404.0
    static let markRow = 5.0

    /// The run whose stack is drawn (the new run on a compare page).
    let report: ReportHead
    /// The same run held whole (a report read back or made in memory), or nil when the page is
    /// drawn from what was kept as the run streamed (``MemoryDigest``, ``HistoryDigest``).
    let whole: Report?
    let base: Report?
    /// App keys in drawing order (the stack's order, bottom first).
    private(set) var apps: [String]
    let duration: Microseconds
    let x: LinearScale
    let y: LinearScale
    let yLower: LinearScale
    /// Instants at which the stack is drawn, and each app's bytes there.
    let instants: [Microseconds]
    private(set) var layers: [[Int64]]
    /// The name of the last layer when it adds up the apps not drawn one by one (``fold(keeping:label:)``).
    private var foldedLabel: String?
    let used: [StepPoint]
    let baseUsed: [StepPoint]
    /// The lower panel's series: compressed bytes (iOS) or bytes past app memory (macOS).
    let lower: [StepPoint]
    let baseLower: [StepPoint]
    /// The RAM the in-RAM compressor's pool takes (empty in a run without one), on the main panel.
    let pool: [StepPoint]
    /// Per app, its resident bytes in the base run and in this one (compare pages only).
    private(set) var appLines: [(base: [StepPoint], new: [StepPoint])]
    /// Where a kill marker links to: a jetsam event's index to an href, per run (nil: no link).
    public var jetsamLink: ((_ isBase: Bool, _ index: Int) -> String?)?
    /// The decision marks of the run and of the base, when gathered while reading them
    /// (`DecisionMarks`); nil: drawn from the runs' events.
    public var marks: (report: DecisionMarks?, base: DecisionMarks?) = (nil, nil)
    /// The run's pressure strip (``PressureColumns``), how many jetsam snapshots it has and those
    /// that can be linked, when gathered as it streamed (``HistoryDigest``); nil: drawn from the run.
    public var drawnHistory: (pressure: [Int], jetsamCount: Int, jetsam: [(index: Int, event: JetsamEvent)])?

    var isMac: Bool { report.device.platform == .macos }

    /// - Parameters:
    ///   - report: the run whose stack is drawn (the new run on a compare page).
    ///   - apps: app keys in the order to stack them; apps only in `base` may be listed too.
    ///   - base: the run to overlay (compare), or nil.
    public init(report: Report, apps: [String], base: Report? = nil, options: HTMLReport.Options = .init()) {
        self.init(report.head, whole: report, apps: apps, base: base, options: options, drawn: nil)
    }

    /// The chart of a run written as it went: its series reduced as it streamed (``MemoryDigest``).
    init(_ head: ReportHead, apps: [String], options: HTMLReport.Options, drawn: MemoryDigest.Drawn) {
        self.init(head, whole: nil, apps: apps, base: nil, options: options, drawn: drawn)
    }

    /// Drawn from `drawn` when given, else from `whole`'s timeline (one of the two is given).
    private init(_ report: ReportHead, whole: Report?, apps: [String], base: Report?, options: HTMLReport.Options,
                 drawn: MemoryDigest.Drawn?) {
        self.report = report
        self.whole = whole
        self.base = base
        self.apps = apps
        let runs = [(report.run, report.summary)] + (base.map { [($0.run, $0.summary)] } ?? [])
        let span = max(1, runs.map(\.0.durationUs).max() ?? 1)
        duration = span
        x = Self.timeScale(span: span)
        let device = report.device
        let peak = runs.map(\.1.peakUsedBytes).max() ?? 0
        let top = max(Double(device.appMemory), Double(peak)) * 1.06
        y = LinearScale(domain: 0...max(top, 1), from: Self.mainBottom, to: Self.mainTop)

        let buckets = options.seriesBuckets
        func reduce(_ points: [StepPoint]) -> [StepPoint] {
            Downsample.minMax(points, start: 0, end: span, buckets: buckets)
        }
        let mac = device.platform == .macos
        func lowerSeries(_ run: Report, used: [StepPoint]) -> [StepPoint] {
            mac ? Downsample.excess(used, over: run.device.appMemory)
                : StepPoint.make(run.timeline.compressedBytes)
        }
        let timeline = whole?.timeline ?? Timeline()
        if let drawn {
            // Reduced while the run streamed (MemoryDigest): the same points as below.
            (instants, layers, used, lower) = (drawn.instants, drawn.layers, drawn.used, drawn.lower)
            pool = report.summary.compressor == nil ? [] : drawn.pool
        } else {
            let usedPoints = StepPoint.make(timeline.usedBytes)
            let appSeries = apps.map { StepPoint.make(timeline.appBytes[$0] ?? []) }
            let times = Downsample.stackInstants(layers: appSeries, total: usedPoints, start: 0, end: span,
                                                 buckets: Self.stackBuckets(options, apps: apps.count))
            instants = times
            layers = appSeries.map { Downsample.values(of: $0, at: times) }
            used = reduce(usedPoints)
            lower = whole.map { reduce(lowerSeries($0, used: usedPoints)) } ?? []
            pool = report.summary.compressor == nil ? [] : reduce(StepPoint.make(timeline.compressorBytes ?? []))
        }
        let baseUsedPoints = base.map { StepPoint.make($0.timeline.usedBytes) } ?? []
        baseUsed = reduce(baseUsedPoints)
        baseLower = base.map { reduce(lowerSeries($0, used: baseUsedPoints)) } ?? []
        let lowerPeak = max(lower.map(\.value).max() ?? 0, baseLower.map(\.value).max() ?? 0)
        let lowerTicks = Ticks.bytes(maximum: max(lowerPeak, 1_048_576), count: 2)
        var lowerTop = Double(lowerTicks.last ?? 1)
        if lowerTop < Double(lowerPeak) { lowerTop = Double(lowerPeak) * 1.08 }
        yLower = LinearScale(domain: 0...max(lowerTop, 1), from: Self.lowerBottom, to: Self.lowerTop)
        if let base {
            let lineBuckets = max(50, min(buckets, options.stackBudget / max(1, 4 * apps.count)))
            appLines = apps.map { app in
                (Downsample.minMax(StepPoint.make(base.timeline.appBytes[app] ?? []), start: 0, end: span, buckets: lineBuckets),
                 Downsample.minMax(StepPoint.make(timeline.appBytes[app] ?? []), start: 0, end: span, buckets: lineBuckets))
            }
        } else {
            appLines = []
        }
    }

    /// The time axis of a chart over `span` microseconds.
    static func timeScale(span: Microseconds) -> LinearScale {
        LinearScale(domain: 0...Double(span), from: left, to: right)
    }

    /// Buckets of the stacked areas: fewer for many apps, to keep apps × instants in budget.
    static func stackBuckets(_ options: HTMLReport.Options, apps: Int) -> Int {
        max(50, min(options.seriesBuckets, options.stackBudget / max(1, 2 * apps)))
    }

    private func c(_ v: Double) -> String { HTMLText.coordinate(v) }

    func name(_ app: String) -> String {
        if app == Self.foldedKey, let foldedLabel { return foldedLabel }
        return report.apps[app]?.name ?? base?.apps[app]?.name ?? app
    }

    /// The key of the layer of the apps not drawn one by one: no workload key starts with a control character.
    static let foldedKey = "\u{1}folded"

    /// Keeps the layers of the apps at `kept` (indices into `apps`, ascending) and adds the
    /// others up into one layer on top, named `label`: the stack's height stays the run's. On a
    /// compare page, only the kept apps have their line of both runs.
    public mutating func fold(keeping kept: [Int], label: String) {
        guard kept.count < apps.count else { return }
        if !appLines.isEmpty { appLines = kept.map { appLines[$0] } }
        let keep = Set(kept)
        var rest = Array(repeating: Int64(0), count: instants.count)
        for (index, layer) in layers.enumerated() where !keep.contains(index) {
            for i in layer.indices { rest[i] += layer[i] }
        }
        apps = kept.map { apps[$0] } + [Self.foldedKey]
        layers = kept.map { layers[$0] } + [rest]
        foldedLabel = label
    }

    /// A step path along `points` up to `end`, closed down to `baseline` when one is given.
    static func stepPath(_ points: [(Microseconds, Int64)], x: LinearScale, y scale: LinearScale, baseline: Double?,
                         end: Microseconds) -> String {
        guard let first = points.first else { return "" }
        func c(_ v: Double) -> String { HTMLText.coordinate(v) }
        var d = ""
        d.reserveCapacity(points.count * 14)
        if let baseline {
            d += "M\(c(x(first.0))) \(c(baseline))V\(c(scale(Double(first.1))))"
        } else {
            d += "M\(c(x(first.0))) \(c(scale(Double(first.1))))"
        }
        var lastY = scale(Double(first.1))
        for point in points.dropFirst() {
            let py = scale(Double(point.1))
            d += "H\(c(x(point.0)))"
            if abs(py - lastY) >= 0.05 { d += "V\(c(py))" }
            lastY = py
        }
        d += "H\(c(x(end)))"
        if let baseline { d += "V\(c(baseline))Z" }
        return d
    }

    func stepPath(_ points: [(Microseconds, Int64)], scale: LinearScale, baseline: Double?, end: Microseconds) -> String {
        Self.stepPath(points, x: x, y: scale, baseline: baseline, end: end)
    }

    func stepPath(_ points: [StepPoint], scale: LinearScale, baseline: Double?, end: Microseconds) -> String {
        stepPath(points.map { ($0.atUs, $0.value) }, scale: scale, baseline: baseline, end: end)
    }

    public func svg() -> String {
        let device = report.device
        let policy = report.policy
        let end = report.run.durationUs
        var out = "<div class=\"chart-wrap\"><svg id=\"mem\" class=\"chart\" viewBox=\"0 0 \(Int(Self.width)) \(Int(Self.height))\" "
            + "role=\"img\" aria-label=\"Memory over time\" preserveAspectRatio=\"none\">\n"

        // Grid: round sizes across, times along (the script redraws the times when zoomed).
        out += "<g class=\"grid\">"
        for tick in Ticks.bytes(maximum: Int64(y.domain.upperBound)) {
            let py = y(Double(tick))
            out += "<line x1=\"\(c(Self.left))\" x2=\"\(c(Self.right))\" y1=\"\(c(py))\" y2=\"\(c(py))\"/>"
            out += "<text class=\"ylab\" x=\"\(c(Self.left - 6))\" y=\"\(c(py + 3.5))\">\(tick == 0 ? "0" : Format.bytes(tick))</text>"
        }
        for tick in Ticks.bytes(maximum: Int64(yLower.domain.upperBound), count: 2) where tick > 0 {
            let py = yLower(Double(tick))
            out += "<line x1=\"\(c(Self.left))\" x2=\"\(c(Self.right))\" y1=\"\(c(py))\" y2=\"\(c(py))\"/>"
            out += "<text class=\"ylab\" x=\"\(c(Self.left - 6))\" y=\"\(c(py + 3.5))\">\(Format.bytes(tick))</text>"
        }
        out += "<text class=\"ylab\" x=\"\(c(Self.left - 6))\" y=\"\(c(Self.lowerBottom + 3.5))\">0</text>"
        out += "</g>\n<g id=\"xgrid\" class=\"grid\" data-y0=\"\(c(Self.mainTop))\" data-y1=\"\(c(Self.lowerBottom))\">"
        for tick in Ticks.time(start: 0, end: duration, count: 10) {
            let px = x(tick)
            out += "<line x1=\"\(c(px))\" x2=\"\(c(px))\" y1=\"\(c(Self.mainTop))\" y2=\"\(c(Self.lowerBottom))\"/>"
            out += "<text class=\"xlab\" x=\"\(c(px))\" y=\"\(c(Self.lowerBottom + 16))\">\(Format.duration(tick))</text>"
        }
        out += "</g>\n"

        // A nested viewport with the outer coordinates clips what is zoomed to the plot area.
        out += "<svg x=\"\(c(Self.left))\" y=\"0\" width=\"\(c(Self.right - Self.left))\" height=\"\(c(Self.height))\" "
            + "viewBox=\"\(c(Self.left)) 0 \(c(Self.right - Self.left)) \(c(Self.height))\" overflow=\"hidden\"><g id=\"zoom\">\n"
        // Stacked areas, highest cumulative first so each lower layer paints over it.
        out += "<g class=\"stack\">"
        var cumulative = Array(repeating: Int64(0), count: instants.count)
        var tops: [[Int64]] = []
        for layer in layers {
            for i in layer.indices { cumulative[i] += layer[i] }
            tops.append(cumulative)
        }
        for index in apps.indices.reversed() where layers[index].contains(where: { $0 > 0 }) {
            let points = Array(zip(instants, tops[index]))
            out += "<path class=\"area\" data-app=\"\(index)\" fill=\"\(HTMLText.appColor(index))\" "
                + "d=\"\(stepPath(points, scale: y, baseline: Self.mainBottom, end: end))\"/>"
        }
        out += "</g>\n"
        for (index, line) in appLines.enumerated() {
            out += "<g class=\"appline\" data-app=\"\(index)\" visibility=\"hidden\">"
            if let base, !line.base.isEmpty {
                out += "<path class=\"used base\" d=\"\(stepPath(line.base, scale: y, baseline: nil, end: base.run.durationUs))\"/>"
            }
            if !line.new.isEmpty {
                out += "<path class=\"used\" style=\"stroke:\(HTMLText.appColor(index))\" d=\"\(stepPath(line.new, scale: y, baseline: nil, end: end))\"/>"
            }
            out += "</g>"
        }
        if let base {
            out += "<path class=\"used base\" d=\"\(stepPath(baseUsed, scale: y, baseline: nil, end: base.run.durationUs))\"/>\n"
        }
        out += "<path class=\"used\" d=\"\(stepPath(used, scale: y, baseline: nil, end: end))\"/>\n"
        if !pool.isEmpty {
            // The part of the suspended apps' layers that is the pool, as one line.
            out += "<path id=\"pool\" class=\"pool\" d=\"\(stepPath(pool, scale: y, baseline: nil, end: end))\"/>\n"
        }
        out += pressureStrip(drawnHistory?.pressure ?? pressureColumns(whole?.timeline.levels ?? [], of: report.run),
                             top: Self.stripTop, bottom: Self.stripBottom)
        if let base {
            out += pressureStrip(pressureColumns(base.timeline.levels, of: base.run), top: Self.baseStripTop, bottom: Self.baseStripBottom)
        }
        out += markers(whole?.events ?? [], row: 0, isBase: false)
        if let base { out += markers(base.events, row: 4, isBase: true) }
        if let base, !baseLower.isEmpty {
            out += "<path class=\"lowerline base\" d=\"\(stepPath(baseLower, scale: yLower, baseline: nil, end: base.run.durationUs))\"/>"
        }
        if !lower.isEmpty {
            out += "<path class=\"comp\" d=\"\(stepPath(lower, scale: yLower, baseline: Self.lowerBottom, end: end))\"/>"
        }
        out += "</g></svg>\n"

        out += levels(device: device, policy: policy)
        let panel = isMac ? "swap: memory past the \(Format.bytes(device.appMemory)) for apps, paged out"
            : "compressed store (flash, \(Format.bytes(device.flash)))"
        out += "<text class=\"panel\" x=\"\(c(Self.left + 4))\" y=\"\(c(Self.lowerTop - 5))\">\(panel.html)</text>"
        if base != nil {
            out += "<text class=\"ylab\" x=\"\(c(Self.left - 6))\" y=\"\(c(Self.mainTop + 4))\">new</text>"
            out += "<text class=\"ylab\" x=\"\(c(Self.left - 6))\" y=\"\(c(Self.mainTop + 4 * Self.markRow + 4))\">base</text>"
        }
        out += "<line id=\"guide\" x1=\"0\" x2=\"0\" y1=\"\(c(Self.mainTop))\" y2=\"\(c(Self.lowerBottom))\" visibility=\"hidden\"/>"
        out += "<rect id=\"sel\" x=\"0\" y=\"\(c(Self.mainTop))\" width=\"0\" height=\"\(c(Self.lowerBottom - Self.mainTop))\" visibility=\"hidden\"/>"
        out += "<rect id=\"hit\" x=\"\(c(Self.left))\" y=\"\(c(Self.mainTop))\" width=\"\(c(Self.right - Self.left))\" height=\"\(c(Self.height - Self.mainTop))\"/>"
        out += killHandles()
        out += "</svg></div>\n"
        return out
    }

    /// App memory and the pressure levels, with labels pushed apart so none overlaps another.
    func levels(device: Device, policy: PolicySettings) -> String {
        let (warning, critical, _) = policy.levelBytes(on: device)
        let fromRAM = policy.hasInRAMCompressor(on: device)
        let percent = { (fraction: Double) in "\(Int((fraction * 100).rounded()))%" }
        var lines: [(label: String, y: Double, cls: String)] = [
            ("app memory \(Format.bytes(device.appMemory))", y(Double(device.appMemory)), "lim"),
            ("critical \(percent(fromRAM ? policy.xnu!.criticalThreshold : policy.criticalLevel))", y(Double(critical)), "crit"),
            ("warning \(percent(fromRAM ? policy.xnu!.pressureThreshold : policy.warningLevel))", y(Double(warning)), "warnl"),
        ]
        lines.sort { $0.y < $1.y }
        var out = "<g class=\"levels\">"
        var lastLabel = -Double.infinity
        for line in lines {
            out += "<line class=\"\(line.cls)\" x1=\"\(c(Self.left))\" x2=\"\(c(Self.right))\" y1=\"\(c(line.y))\" y2=\"\(c(line.y))\"/>"
            // Above its line when there is room, otherwise below the previous label.
            let labelY = max(line.y - 3, lastLabel + 12)
            lastLabel = labelY
            out += "<text class=\"lvlab \(line.cls)\" x=\"\(c(Self.right - 4))\" y=\"\(c(labelY))\">\(line.label.html)</text>"
        }
        return out + "</g>\n"
    }

    /// The pressure strip's columns of a run's level changes (``PressureColumns``).
    func pressureColumns(_ levels: [Timeline.LevelChange], of run: Report.Run) -> [Int] {
        var columns = PressureColumns(scale: x, durationUs: run.durationUs)
        for change in levels { columns.add(change) }
        return columns.finish()
    }

    /// A strip coloured by pressure level between `top` and `bottom`: per drawing column the
    /// highest level reached in it (`highest`), so no moment at warning or critical is lost however long the run.
    func pressureStrip(_ highest: [Int], top: Double, bottom: Double) -> String {
        let columns = highest.count
        var paths = [RelativePath(), RelativePath(), RelativePath()]
        var start = 0
        for col in 1...columns where col == columns || highest[col] != highest[start] {
            if highest[start] > 0 {
                paths[highest[start]].rectangle(x: Self.left + Double(start), y: top, width: Double(col - start), height: bottom - top)
            }
            start = col
        }
        var out = "<g class=\"strip\">"
        for (level, cls) in [(1, "p-warning"), (2, "p-critical")] where !paths[level].d.isEmpty {
            out += "<path class=\"\(cls)\" d=\"\(paths[level].d)\"/>"
        }
        return out + "</g>\n"
    }

    static let markKinds: [(kind: SimEvent.Kind, cls: String)] = [
        (.compression, "m-comp"), (.eviction, "m-evict"), (.memoryWarning, "m-warn"), (.exit, "m-kill"),
    ]

    /// Eviction, compression, warning and kill marks along the top of the main panel, one per
    /// kind and drawing column at most, in rows from `row`; one path per kind. From the marks
    /// gathered while reading or streaming the run, else from its `events`.
    func markers(_ events: [SimEvent], row: Int, isBase: Bool) -> String {
        var paths = Array(repeating: RelativePath(), count: Self.markKinds.count)
        var seen = Set<Int>()
        for mark in (isBase ? marks.base : marks.report)?.marks ?? Decisions.marks(events) {
            guard let kind = Self.markKinds.firstIndex(where: { $0.kind == mark.kind }) else { continue }
            let px = x(mark.atUs).rounded()
            guard seen.insert(kind * 10_000 + Int(px)).inserted else { continue }
            paths[kind].vertical(x: px, y: Self.mainTop + Double(row + kind) * Self.markRow, length: Self.markRow)
        }
        var out = "<g class=\"marks\(isBase ? " base" : "")\">"
        for (kind, path) in paths.enumerated() where !path.d.isEmpty {
            out += "<path class=\"\(Self.markKinds[kind].cls)\" d=\"\(path.d)\"/>"
        }
        return out + "</g>\n"
    }

    /// A triangle above the chart per memory kill (one per drawing column), linking to its jetsam
    /// view; the script keeps them in place when the chart is zoomed.
    func killHandles() -> String {
        guard let jetsamLink else { return "" }
        var out = "<g id=\"kills\">"
        func numbered(_ events: [JetsamEvent]) -> [(index: Int, event: JetsamEvent)] {
            events.enumerated().map { (index: $0.offset, event: $0.element) }
        }
        let runs = [(false, report.apps, drawnHistory?.jetsam ?? numbered(whole?.jetsamEvents ?? []))]
            + (base.map { [(true, $0.apps, numbered($0.jetsamEvents))] } ?? [])
        for (isBase, apps, events) in runs {
            var seen = Set<String>()
            for (index, event) in events {
                guard let href = jetsamLink(isBase, index) else { continue }
                let px = c(x(event.atUs))
                guard seen.insert(px).inserted else { continue }
                let name = apps[event.killed]?.name ?? event.killed
                out += "<a class=\"kh\(isBase ? " base" : "")\" href=\"\(href.html)\" data-t=\"\(event.atUs)\" transform=\"translate(\(px) 0)\">"
                    + "<title>\(((isBase ? "base: " : "") + name).html) killed (\(event.exitReason.rawValue)) at \(Format.duration(event.atUs)): open its jetsam report</title>"
                    + "<path d=\"M-5 2H5L0 \(c(Self.mainTop - 2))Z\"/></a>"
            }
        }
        return out + "</g>\n"
    }

    public func legend() -> String {
        var out = "<ul class=\"legend\">"
        for (index, app) in apps.enumerated() {
            out += "<li><i style=\"background:\(HTMLText.appColor(index))\"></i>\(name(app).html)</li>"
        }
        out += "<li><i class=\"k-used\"></i>used</li>"
        if base != nil { out += "<li><i class=\"k-used base\"></i>used in base (dashed)</li>" }
        out += "<li><i class=\"k-comp\"></i>\(isMac ? "swap" : "compressed")</li>"
        out += "<li><i class=\"k-lim\"></i>app memory</li><li><i class=\"k-warn\"></i>warning level</li><li><i class=\"k-crit\"></i>critical level</li>"
        if let c = report.summary.compressor {
            // Suspended apps' layers are their share of the in-RAM compressor's pool.
            let ratios = Set(c.ratios.map(\.ratio))
            let ratio = ratios.count == 1 ? Format.ratio(ratios.first!) : "per app"
            out += "<li><i class=\"k-pool\"></i>suspended apps compressed in RAM: pool peak \(Format.bytes(c.peakBytes).html) "
                + "holding \(Format.bytes(c.peakUncompressedBytes).html), ratio \(ratio)</li>"
        }
        if let f = report.summary.freezer {
            // The xnu freezer's daily budget of writes to flash, and when it ran out.
            var text = "freezer: \(f.freezes) freezes wrote \(Format.bytes(f.bytesWritten)) of its "
                + "\(Format.bytes(f.dailyBudgetBytes)) daily budget"
            if let at = f.firstExhaustedAtUs {
                text += "; spent at \(Format.duration(at)), then \(f.skips.outOfBudget) freezes skipped"
            }
            out += "<li>\(text.html)</li>"
        }
        out += "<li><i class=\"k-p-warning\"></i>strip: at warning</li><li><i class=\"k-p-critical\"></i>strip: at critical</li>"
        if base != nil { out += "<li>upper strip new, lower strip base</li>" }
        if !isMac { out += "<li><i class=\"k-m-comp\"></i>compression</li><li><i class=\"k-m-evict\"></i>eviction</li>" }
        out += "<li><i class=\"k-m-warn\"></i>memory warning</li><li><i class=\"k-m-kill\"></i>kill</li>"
        if jetsamLink != nil, (drawnHistory?.jetsamCount ?? whole?.jetsamEvents.count ?? 0) > 0 || !(base?.jetsamEvents.isEmpty ?? true) {
            out += "<li><i class=\"k-kh\"></i>memory kill: click for its jetsam report</li>"
        }
        return out + "</ul>\n"
    }

    /// The chart's data for the page script (hover values, zoom).
    public func writeData(into json: inout JSONWriter) {
        json.raw("{")
        json.key("x0"); json.number(Self.left); json.raw(",")
        json.key("x1"); json.number(Self.right); json.raw(",")
        json.key("width"); json.number(Self.width); json.raw(",")
        json.key("durationUs"); json.int(duration); json.raw(",")
        json.key("lowerName"); json.string(isMac ? "swap" : "compressed"); json.raw(",")
        json.key("apps"); json.array(apps) { $0.string(name($1)) }; json.raw(",")
        json.key("colors"); json.array(apps.indices) { $0.string(HTMLText.appColor($1)) }; json.raw(",")
        json.key("t"); writeInts(instants, into: &json); json.raw(",")
        json.key("v"); json.raw("[")
        for (index, layer) in layers.enumerated() {
            if index > 0 { json.raw(",") }
            // Apps never resident are written as an empty list.
            if layer.contains(where: { $0 != 0 }) { writeInts(layer, into: &json) } else { json.raw("[]") }
        }
        json.raw("],")
        json.key("used"); writePairs(used, into: &json); json.raw(",")
        json.key("compressed"); writePairs(lower, into: &json); json.raw(",")
        if !pool.isEmpty { json.key("pool"); writePairs(pool, into: &json); json.raw(",") }
        if base != nil {
            json.key("baseUsed"); writePairs(baseUsed, into: &json); json.raw(",")
            json.key("baseCompressed"); writePairs(baseLower, into: &json); json.raw(",")
        }
        let (warning, critical, _) = report.policy.levelBytes(on: report.device)
        json.key("warning"); json.number(Double(warning)); json.raw(",")
        json.key("critical"); json.number(Double(critical))
        json.raw("}")
    }

    private func writeInts(_ values: [Int64], into json: inout JSONWriter) {
        json.raw("[")
        for (index, value) in values.enumerated() {
            if index > 0 { json.raw(",") }
            json.int(value)
        }
        json.raw("]")
    }

    private func writePairs(_ points: [StepPoint], into json: inout JSONWriter) {
        json.raw("[")
        for (index, point) in points.enumerated() {
            if index > 0 { json.raw(",") }
            json.raw("["); json.int(point.atUs); json.raw(","); json.int(point.value); json.raw("]")
        }
        json.raw("]")
    }
}
