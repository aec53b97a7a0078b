import MemprofOutput
import Foundation
import MemprofCore
import MemprofHTML
import MemprofProfile
import MemprofReport

/// Self-contained HTML pages for compare and check: inline CSS and SVG, no script, no network.
public enum CompareHTML {
    public static func comparison(_ c: Comparison, base: Report, new: Report, all: Bool = false) -> String {
        var body = "<h1>memprof compare: \(esc(c.base.workload))"
        if c.base.workload != c.new.workload { body += " vs \(esc(c.new.workload))" }
        body += "</h1>\n"
        body += "<p class=\"\(c.hasRegression ? "bad" : "good")\">\(c.hasRegression ? "Regression" : "No regression"): "
            + "\(c.metrics.count) metrics, \(esc(c.countsLine)).</p>\n"
        for note in c.notes { body += "<p class=\"note\">\(esc(note))</p>\n" }
        if c.hasRegression {
            body += "<ul class=\"worse\">\n"
            for row in c.regressions { body += "<li>\(esc(row.message ?? row.metric))</li>\n" }
            body += "</ul>\n"
        }
        body += "<h2>Memory in use</h2>\n<div class=\"pair\">\n"
        let scale = TimelineChart.Scale(reports: [base, new])
        body += "<figure><figcaption>base (seed \(c.base.seed), memprof \(esc(c.base.memprofVersion)))</figcaption>"
            + TimelineChart.svg(base, scale: scale) + "</figure>\n"
        body += "<figure><figcaption>new (seed \(c.new.seed), memprof \(esc(c.new.memprofVersion)))</figcaption>"
            + TimelineChart.svg(new, scale: scale) + "</figure>\n</div>\n"
        body += "<h2>Stack samples</h2>\n"
        if let graph = DiffFlameGraph.svg(base: base, new: new) {
            body += "<p class=\"note\">A differential flame graph: boxes are laid out by the new run's samples "
                + "(every app and handler side by side); red boxes took a larger share of the samples than in the "
                + "base run, blue ones a smaller share, grey ones about the same. Hover a box for its numbers. "
                + "Samples are measured, so small differences are noise.</p>\n" + graph
        } else {
            body += "<p class=\"note\">\(esc(samplesNote(base, new)))</p>\n"
        }
        body += "<h2>\(all ? "All metrics" : "Metrics that changed")</h2>\n"
        let rows = CompareOutput.shownRows(c, all: all)
        if rows.isEmpty {
            body += "<p>No metric changed.</p>\n"
        } else {
            body += "<table>\n<thead><tr>" + CompareOutput.header.map { "<th>\(esc($0))</th>" }.joined() + "</tr></thead>\n<tbody>\n"
            for row in rows {
                let cells = CompareOutput.cells(row)
                body += "<tr class=\"\(row.verdict.rawValue)\"><td><code>\(esc(cells[0]))</code></td>"
                    + cells[1...4].map { "<td class=\"num\">\(esc($0))</td>" }.joined()
                    + "<td>\(esc(cells[5]))</td></tr>\n"
            }
            body += "</tbody>\n</table>\n"
        }
        return page(title: "memprof compare: \(c.base.workload)", body: body)
    }

    /// A page in compare's style; `extraStyle` is appended to its stylesheet (fleet.html uses it).
    public static func page(title: String, body: String, extraStyle: String = "") -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
        <title>\(esc(title))</title>
        <style>
        body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em auto; max-width: 1200px; padding: 0 1em; color: #1d1d1f; background: #fff; }
        h1 { font-size: 1.5em; } h2 { font-size: 1.15em; margin-top: 2em; }
        table { border-collapse: collapse; width: 100%; }
        th, td { padding: 3px 8px; border-bottom: 1px solid #e5e5e5; text-align: left; }
        td.num { text-align: right; font-variant-numeric: tabular-nums; }
        tr.worse td { background: #fde8e8; } tr.better td { background: #e6f6ea; }
        tr.new td, tr.gone td { background: #fff6dc; }
        .bad { color: #b00020; font-weight: 600; } .good { color: #1b7f3b; font-weight: 600; }
        .note { color: #666; } ul.worse li { color: #b00020; }
        .pair { display: grid; grid-template-columns: 1fr 1fr; gap: 1em; }
        figure { margin: 0; } figcaption { color: #666; margin-bottom: 4px; }
        svg { width: 100%; height: auto; background: #fafafa; border: 1px solid #e5e5e5; }
        svg text { font: 11px system-ui, sans-serif; fill: #666; }
        ol.events { color: #444; }
        @media (prefers-color-scheme: dark) {
          body { background: #1d1d1f; color: #eee; } svg { background: #26262a; border-color: #444; }
          th, td { border-color: #444; } tr.worse td { background: #4a1f24; } tr.better td { background: #1e3a26; }
          tr.new td, tr.gone td { background: #3d3520; } ol.events { color: #ccc; }
        }
        \(extraStyle)
        </style>
        </head>
        <body>
        \(body)
        </body>
        </html>

        """
    }

    /// What the page can say about the two runs' stack samples; a differential flame graph is
    /// not drawn yet.
    static func samplesNote(_ base: Report, _ new: Report) -> String {
        let sampled = [base, new].map { $0.profile?.hasSamples == true }
        switch (sampled[0], sampled[1]) {
        case (true, true):
            return "Both reports carry stack samples."
        case (true, false): return "Only the base report carries stack samples, so there is nothing to compare them with."
        case (false, true): return "Only the new report carries stack samples, so there is nothing to compare them with."
        case (false, false): return "Neither report carries stack samples, so there is no flame graph to compare."
        }
    }

    static func esc(_ s: String) -> String {
        HTMLEscape.text(s)
    }
}

/// A step chart of `timeline.usedBytes` (and the device's RAM as a line) as inline SVG.
public enum TimelineChart {
    /// Shared axes, so that two charts side by side can be read against each other.
    public struct Scale: Sendable {
        public var maxUs: Int64
        public var maxBytes: Int64

        public init(reports: [Report]) {
            maxUs = max(1, reports.map(\.run.durationUs).max() ?? 1)
            let peak = reports.flatMap { $0.timeline.usedBytes.map { $0.count > 1 ? $0[1] : 0 } }.max() ?? 0
            let ram = reports.map(\.device.appMemory).max() ?? 0
            maxBytes = max(1, peak, ram)
        }
    }

    static let width = 560.0, height = 220.0, left = 56.0, right = 8.0, top = 10.0, bottom = 24.0

    public static func svg(_ report: Report, scale: Scale) -> String {
        let plotW = width - left - right, plotH = height - top - bottom
        func x(_ us: Int64) -> Double { left + Double(us) / Double(scale.maxUs) * plotW }
        func y(_ bytes: Int64) -> Double { top + plotH - Double(bytes) / Double(scale.maxBytes) * plotH }
        let points = downsample(report.timeline.usedBytes, buckets: Int(plotW) * 2)
        var path = ""
        var lastY: Double?
        for (index, point) in points.enumerated() {
            let px = x(point.0), py = y(point.1)
            if index == 0 {
                path += "M\(f(px)) \(f(py))"
            } else {
                path += "H\(f(px))"
                if py != lastY { path += "V\(f(py))" }
            }
            lastY = py
        }
        if !points.isEmpty { path += "H\(f(x(report.run.durationUs)))" }
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" "
            + "aria-label=\"memory in use over time\">"
        // Axes and labels.
        svg += "<line x1=\"\(f(left))\" y1=\"\(f(top + plotH))\" x2=\"\(f(width - right))\" y2=\"\(f(top + plotH))\" stroke=\"#999\"/>"
        svg += "<line x1=\"\(f(left))\" y1=\"\(f(top))\" x2=\"\(f(left))\" y2=\"\(f(top + plotH))\" stroke=\"#999\"/>"
        for fraction in [0.0, 0.5, 1.0] {
            let bytes = Int64(Double(scale.maxBytes) * fraction)
            svg += "<text x=\"\(f(left - 4))\" y=\"\(f(y(bytes) + 4))\" text-anchor=\"end\">\(Format.bytes(bytes))</text>"
            let us = Int64(Double(scale.maxUs) * fraction)
            let anchor = fraction == 0 ? "start" : fraction == 1 ? "end" : "middle"
            svg += "<text x=\"\(f(x(us)))\" y=\"\(f(height - 6))\" text-anchor=\"\(anchor)\">\(Format.duration(us))</text>"
        }
        let ram = report.device.appMemory
        if ram > 0 {
            svg += "<line x1=\"\(f(left))\" y1=\"\(f(y(ram)))\" x2=\"\(f(width - right))\" y2=\"\(f(y(ram)))\" "
                + "stroke=\"#b00020\" stroke-dasharray=\"4 3\"><title>memory for apps \(Format.bytes(ram))</title></line>"
        }
        svg += "<path d=\"\(path)\" fill=\"none\" stroke=\"#0a66c2\" stroke-width=\"1.5\">"
            + "<title>peak \(Format.bytes(report.summary.peakUsedBytes))</title></path>"
        svg += "</svg>"
        return svg
    }

    /// At most about `buckets` points: per time bucket, the first point and the highest, so peaks survive.
    static func downsample(_ series: [[Int64]], buckets: Int) -> [(Int64, Int64)] {
        let points = series.compactMap { $0.count >= 2 ? ($0[0], $0[1]) : nil }
        guard points.count > buckets * 2, let last = points.last?.0, last > 0 else { return points }
        var out: [(Int64, Int64)] = []
        var bucket = -1
        var peak: (Int64, Int64)?
        for p in points {
            let b = Int(Double(p.0) / Double(last) * Double(buckets - 1))
            if b != bucket {
                if let peak { out.append(peak) }
                out.append(p)
                bucket = b
                peak = nil
            } else if p.1 > (peak?.1 ?? out.last!.1) {
                peak = p
            }
        }
        if let peak { out.append(peak) }
        return out.sorted { $0.0 < $1.0 }
    }

    static func f(_ v: Double) -> String { Format.oneDecimal(v) }
}

/// The compare page's differential flame graph, as inline SVG with native tooltips (no script).
enum DiffFlameGraph {
    static let width = 1200.0
    static let row = 16

    /// Each profile's stacks with the app and handler as their two outermost frames.
    static func stacks(_ report: Report) -> [(frames: [String], count: Int)] {
        guard let profile = report.profile else { return [] }
        return profile.handlers.flatMap { handler in
            handler.stacks.map { stack in
                (frames: [handler.app, handler.handler] + stack.frames.map {
                    $0 >= 0 && $0 < profile.frames.count ? profile.frames[$0].name : "?"
                }, count: stack.count)
            }
        }
    }

    static func svg(base: Report, new: Report) -> String? {
        guard base.profile?.hasSamples == true, new.profile?.hasSamples == true else { return nil }
        let newStacks = stacks(new)
        let total = newStacks.reduce(0) { $0 + $1.count }
        let boxes = DiffFlameLayout.boxes(base: stacks(base), new: newStacks, minCount: max(1, total / 1_200))
        guard total > 0, !boxes.isEmpty else { return nil }
        let height = ((boxes.map(\.depth).max() ?? 0) + 1) * row
        var out = "<svg class=\"diff-flame\" viewBox=\"0 0 \(Int(width)) \(height)\" role=\"img\" "
            + "aria-label=\"Differential flame graph\" style=\"width:100%;font:10px sans-serif\">\n"
        for box in boxes {
            let x = Double(box.start) / Double(total) * width
            let w = max(0.3, Double(box.count) / Double(total) * width)
            let y = height - (box.depth + 1) * row
            let tip = "\(box.name): \(percent(box.newShare)) of samples (base \(percent(box.baseShare)), "
                + "\(box.delta >= 0 ? "+" : "")\(percent(box.delta)))"
            out += "<g><title>\(HTMLEscape.text(tip))</title><rect x=\"\(coordinate(x))\" y=\"\(y)\" width=\"\(coordinate(w))\" "
                + "height=\"\(row - 1)\" fill=\"\(color(box.delta))\"/>"
            if w > 40 {
                out += "<text x=\"\(coordinate(x + 3))\" y=\"\(y + row - 4)\">\(HTMLEscape.text(String(box.name.prefix(Int(w / 6)))))</text>"
            }
            out += "</g>\n"
        }
        return out + "</svg>\n"
    }

    /// Red for a larger share in the new run, blue for a smaller one, stronger with the change;
    /// grey within half a percentage point.
    static func color(_ delta: Double) -> String {
        let magnitude = min(1, abs(delta) / 0.10)
        if abs(delta) < 0.005 { return "hsl(0 0% 78%)" }
        let lightness = Int(82 - 37 * magnitude)
        return delta > 0 ? "hsl(0 80% \(lightness)%)" : "hsl(220 80% \(lightness)%)"
    }

    static func percent(_ share: Double) -> String {
        let tenths = Int((share * 1000).rounded())
        return "\(tenths / 10).\(abs(tenths % 10))%"
    }

    static func coordinate(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return tenths % 10 == 0 ? String(tenths / 10) : "\(tenths / 10).\(abs(tenths % 10))"
    }
}
