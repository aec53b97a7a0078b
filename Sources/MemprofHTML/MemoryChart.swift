import MemprofOutput
import MemprofCore
import MemprofReport

/// The memory-over-time chart: per-app stacked areas of resident memory, the used line, app
/// memory and the warning and critical levels, markers, a pressure strip, and a panel below for
/// the compressed store. Drawn in SVG user units on a 1000-wide canvas.
struct MemoryChart {
    static let width = 1000.0
    static let left = 64.0
    static let right = 990.0
    static let mainTop = 14.0
    static let mainBottom = 286.0
    static let stripTop = 289.0
    static let stripBottom = 295.0
    static let flashTop = 324.0
    static let flashBottom = 380.0
    static let height = 404.0

    let report: Report
    let apps: [String]
    let x: LinearScale
    let y: LinearScale
    let yFlash: LinearScale
    /// Instants at which the stack is drawn, and each app's bytes there.
    let instants: [Microseconds]
    let layers: [[Int64]]
    let used: [StepPoint]
    let compressed: [StepPoint]

    init(report: Report, apps: [String], options: HTMLReport.Options) {
        self.report = report
        self.apps = apps
        let duration = max(report.run.durationUs, 1)
        let timeline = report.timeline
        x = LinearScale(domain: 0...Double(duration), from: Self.left, to: Self.right)
        let device = report.device
        let top = max(Double(device.appMemory), Double(report.summary.peakUsedBytes)) * 1.06
        y = LinearScale(domain: 0...max(top, 1), from: Self.mainBottom, to: Self.mainTop)
        let flashTop = max(Double(device.flash), Double(report.summary.peakCompressedBytes)) * 1.08
        yFlash = LinearScale(domain: 0...max(flashTop, 1), from: Self.flashBottom, to: Self.flashTop)

        let appSeries = apps.map { StepPoint.make(timeline.appBytes[$0] ?? []) }
        let usedPoints = StepPoint.make(timeline.usedBytes)
        let stackBuckets = max(50, min(options.seriesBuckets, options.stackBudget / max(1, 2 * apps.count)))
        let times = Downsample.stackInstants(layers: appSeries, total: usedPoints, start: 0, end: duration,
                                             buckets: stackBuckets)
        instants = times
        layers = appSeries.map { Downsample.values(of: $0, at: times) }
        used = Downsample.minMax(usedPoints, start: 0, end: duration, buckets: options.seriesBuckets)
        compressed = Downsample.minMax(StepPoint.make(timeline.compressedBytes), start: 0, end: duration,
                                       buckets: options.seriesBuckets)
    }

    private func c(_ v: Double) -> String { HTMLText.coordinate(v) }

    /// A step path along `points`, closed down to `baseline` when `baseline` is given.
    func stepPath(_ points: [(Microseconds, Int64)], scale: LinearScale, baseline: Double?) -> String {
        guard let first = points.first else { return "" }
        var d = ""
        d.reserveCapacity(points.count * 14)
        let end = x(report.run.durationUs)
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
        d += "H\(c(end))"
        if let baseline { d += "V\(c(baseline))Z" }
        return d
    }

    func svg() -> String {
        let device = report.device
        let policy = report.policy
        var out = "<div class=\"chart-wrap\"><svg id=\"mem\" class=\"chart\" viewBox=\"0 0 \(Int(Self.width)) \(Int(Self.height))\" "
            + "role=\"img\" aria-label=\"Memory over time\" preserveAspectRatio=\"none\">\n"

        // Grid and axes.
        out += "<g class=\"grid\">"
        for tick in Ticks.bytes(maximum: Int64(y.domain.upperBound)) {
            let py = y(Double(tick))
            out += "<line x1=\"\(c(Self.left))\" x2=\"\(c(Self.right))\" y1=\"\(c(py))\" y2=\"\(c(py))\"/>"
            out += "<text class=\"ylab\" x=\"\(c(Self.left - 6))\" y=\"\(c(py + 3.5))\">\(Format.bytes(tick))</text>"
        }
        for tick in Ticks.time(start: 0, end: report.run.durationUs, count: 10) {
            let px = x(tick)
            out += "<line x1=\"\(c(px))\" x2=\"\(c(px))\" y1=\"\(c(Self.mainTop))\" y2=\"\(c(Self.flashBottom))\"/>"
            out += "<text class=\"xlab\" x=\"\(c(px))\" y=\"\(c(Self.flashBottom + 16))\">\(Format.duration(tick))</text>"
        }
        out += "</g>\n"

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
            out += "<path class=\"area\" data-app=\"\(index)\" fill=\"\(HTMLText.appColor(index))\" d=\"\(stepPath(points, scale: y, baseline: Self.mainBottom))\"/>"
        }
        out += "</g>\n"
        out += "<path class=\"used\" d=\"\(stepPath(used.map { ($0.atUs, $0.value) }, scale: y, baseline: nil))\"/>\n"

        // Levels.
        let levels: [(String, Double, String)] = [
            ("app memory", Double(device.appMemory), "lim"),
            ("critical \(Int(policy.criticalLevel * 100))%", Double(device.appMemory) * policy.criticalLevel, "crit"),
            ("warning \(Int(policy.warningLevel * 100))%", Double(device.appMemory) * policy.warningLevel, "warnl"),
        ]
        for (label, value, cls) in levels {
            let py = y(value)
            out += "<line class=\"\(cls)\" x1=\"\(c(Self.left))\" x2=\"\(c(Self.right))\" y1=\"\(c(py))\" y2=\"\(c(py))\"/>"
            out += "<text class=\"lvlab \(cls)\" x=\"\(c(Self.right - 4))\" y=\"\(c(py - 3))\">\(label.html)</text>"
        }
        out += "\n" + pressureStrip() + markers()

        // Compressed store panel.
        out += "<g class=\"flash\">"
        out += "<text class=\"panel\" x=\"\(c(Self.left + 4))\" y=\"\(c(Self.flashTop - 4))\">compressed store (flash)</text>"
        out += "<line class=\"lim\" x1=\"\(c(Self.left))\" x2=\"\(c(Self.right))\" y1=\"\(c(yFlash(Double(device.flash))))\" y2=\"\(c(yFlash(Double(device.flash))))\"/>"
        out += "<text class=\"ylab\" x=\"\(c(Self.left - 6))\" y=\"\(c(yFlash(Double(device.flash)) + 3.5))\">\(Format.bytes(device.flash))</text>"
        out += "<text class=\"ylab\" x=\"\(c(Self.left - 6))\" y=\"\(c(Self.flashBottom + 3.5))\">0</text>"
        if !compressed.isEmpty {
            out += "<path class=\"comp\" d=\"\(stepPath(compressed.map { ($0.atUs, $0.value) }, scale: yFlash, baseline: Self.flashBottom))\"/>"
        }
        out += "</g>\n"
        out += "<line id=\"guide\" x1=\"0\" x2=\"0\" y1=\"\(c(Self.mainTop))\" y2=\"\(c(Self.flashBottom))\" visibility=\"hidden\"/>"
        out += "<rect id=\"sel\" x=\"0\" y=\"\(c(Self.mainTop))\" width=\"0\" height=\"\(c(Self.flashBottom - Self.mainTop))\" visibility=\"hidden\"/>"
        out += "<rect id=\"hit\" x=\"\(c(Self.left))\" y=\"0\" width=\"\(c(Self.right - Self.left))\" height=\"\(c(Self.height))\"/>"
        out += "</svg></div>\n"
        return out
    }

    /// A strip under the main panel coloured by pressure level.
    func pressureStrip() -> String {
        var out = "<g class=\"strip\">"
        let levels = report.timeline.levels
        var lastEnd = -1.0
        for (index, change) in levels.enumerated() where change.level != .normal {
            let end = index + 1 < levels.count ? levels[index + 1].atUs : report.run.durationUs
            var x0 = x(change.atUs)
            var x1 = x(end)
            if x1 - x0 < 0.5 { x1 = x0 + 0.5 }
            if x0 < lastEnd { x0 = lastEnd }
            guard x1 > x0 else { continue }
            lastEnd = x1
            out += "<rect class=\"p-\(change.level.rawValue)\" x=\"\(c(x0))\" y=\"\(c(Self.stripTop))\" width=\"\(c(x1 - x0))\" height=\"\(c(Self.stripBottom - Self.stripTop))\"/>"
        }
        return out + "</g>\n"
    }

    /// Eviction, compression, kill and warning marks along the top of the main panel, one per
    /// kind and drawing column at most.
    func markers() -> String {
        let kinds: [(SimEvent.Kind, String, Double)] = [(.compression, "m-comp", 0), (.eviction, "m-evict", 1),
                                                        (.memoryWarning, "m-warn", 2), (.exit, "m-kill", 3)]
        var out = "<g class=\"marks\">"
        var seen = Set<String>()
        for event in report.events {
            guard let kind = kinds.first(where: { $0.0 == event.kind }) else { continue }
            if event.kind == .exit, event.reason == .userQuit || event.reason == nil { continue }
            let px = c(x(event.atUs))
            guard seen.insert("\(kind.1)@\(px)").inserted else { continue }
            let y0 = Self.mainTop + kind.2 * 5
            out += "<line class=\"\(kind.1)\" x1=\"\(px)\" x2=\"\(px)\" y1=\"\(c(y0))\" y2=\"\(c(y0 + 5))\"/>"
        }
        return out + "</g>\n"
    }

    func legend() -> String {
        var out = "<ul class=\"legend\">"
        for (index, app) in apps.enumerated() {
            let name = report.apps[app]?.name ?? app
            out += "<li><i style=\"background:\(HTMLText.appColor(index))\"></i>\(name.html)</li>"
        }
        out += "<li><i class=\"k-used\"></i>used</li><li><i class=\"k-comp\"></i>compressed</li>"
        out += "<li><i class=\"k-lim\"></i>app memory</li><li><i class=\"k-warn\"></i>warning</li><li><i class=\"k-crit\"></i>critical</li>"
        out += "<li><i class=\"k-m-comp\"></i>compression</li><li><i class=\"k-m-evict\"></i>eviction</li>"
        out += "<li><i class=\"k-m-warn\"></i>memory warning</li><li><i class=\"k-m-kill\"></i>kill</li>"
        return out + "</ul>\n"
    }

    func writeData(into json: inout JSONWriter) {
        json.raw("{")
        json.key("x0"); json.number(Self.left); json.raw(",")
        json.key("x1"); json.number(Self.right); json.raw(",")
        json.key("width"); json.number(Self.width); json.raw(",")
        json.key("apps"); json.raw("[")
        for (index, app) in apps.enumerated() {
            if index > 0 { json.raw(",") }
            json.string(report.apps[app]?.name ?? app)
        }
        json.raw("],")
        json.key("colors"); json.raw("[")
        for index in apps.indices {
            if index > 0 { json.raw(",") }
            json.string(HTMLText.appColor(index))
        }
        json.raw("],")
        json.key("t"); writeInts(instants, into: &json); json.raw(",")
        json.key("v"); json.raw("[")
        for (index, layer) in layers.enumerated() {
            if index > 0 { json.raw(",") }
            // Apps never resident are written as an empty list.
            if layer.contains(where: { $0 != 0 }) { writeInts(layer, into: &json) } else { json.raw("[]") }
        }
        json.raw("],")
        json.key("used"); writePairs(used, into: &json); json.raw(",")
        json.key("compressed"); writePairs(compressed, into: &json); json.raw(",")
        json.key("warning"); json.number(Double(report.device.appMemory) * report.policy.warningLevel); json.raw(",")
        json.key("critical"); json.number(Double(report.device.appMemory) * report.policy.criticalLevel)
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
