import MemprofCore
import MemprofProfile
import MemprofReport

// The stack-samples section (issue 4, item 7): when the report carries a `profile` with samples,
// a flame graph per app and handler (click a box to zoom into it, click the root row or press
// Escape to zoom out, search by name) and the sampler's own figures. The layout is
// `FlameLayout.boxes` (unit-tested); the interaction lives in `HTMLAssets.script` under `flame`.

extension HTMLReport {
    /// Flame graphs are drawn on this many user units across.
    static let flameWidth = 1400.0
    static let flameRow = 17

    /// The flame-graph section for a report with stack samples, or nil when it has none.
    static func profileSection(for report: Report) -> HTMLSection? {
        guard let profile = report.profile, profile.hasSamples else { return nil }
        let names = report.apps.mapValues(\.name)
        var html = samplerFigures(profile)
        html += "<p class=\"hint\">Click a box to zoom into it; click the bottom row or press Escape to zoom out. "
            + "<label>search <input type=\"search\" id=\"flame-search\" placeholder=\"frame name\"></label> "
            + "<span id=\"flame-found\"></span></p>\n"
        for (index, handler) in profile.handlers.enumerated() where !handler.stacks.isEmpty {
            let stacks = handler.stacks.map { stack in
                (frames: stack.frames.map { $0 >= 0 && $0 < profile.frames.count ? profile.frames[$0].name : "?" },
                 count: stack.count)
            }
            let total = stacks.reduce(0) { $0 + $1.count }
            let boxes = FlameLayout.boxes(stacks, minCount: max(1, total / 1_500))
            let depth = (boxes.map(\.depth).max() ?? 0) + 1
            let height = depth * flameRow
            let app = names[handler.app] ?? handler.app
            html += "<h3 class=\"flame-title\">\(app.html) · \(handler.handler.html) <small>\(handler.kernel.html) · "
                + "\(HTMLText.count(total)) samples · \(handler.runs) run\(handler.runs == 1 ? "" : "s") · "
                + "wall \(Format.duration(handler.wallMicroseconds)) · cpu \(Format.duration(handler.cpuMicroseconds))</small></h3>\n"
            html += "<svg class=\"flame\" id=\"flame-\(index)\" viewBox=\"0 0 \(Int(flameWidth)) \(height)\" data-total=\"\(total)\" "
                + "data-rows=\"\(depth)\" role=\"img\" aria-label=\"Flame graph of \(app.html) \(handler.handler.html)\">\n"
            for box in boxes {
                let x = Double(box.start) / Double(total) * flameWidth
                let w = Double(box.count) / Double(total) * flameWidth
                let y = height - (box.depth + 1) * flameRow
                html += "<g class=\"fb\" data-s=\"\(box.start)\" data-n=\"\(box.count)\" data-self=\"\(box.selfCount)\" data-d=\"\(box.depth)\">"
                    + "<rect x=\"\(HTMLText.coordinate(x))\" y=\"\(y)\" width=\"\(HTMLText.coordinate(max(w, 0.3)))\" height=\"\(flameRow - 1)\" "
                    + "fill=\"\(flameColor(box.name))\"/><text x=\"\(HTMLText.coordinate(x + 3))\" y=\"\(y + flameRow - 5)\">\(box.name.html)</text></g>\n"
            }
            html += "</svg>\n"
        }
        return HTMLSection(id: "profile", title: "Stack samples", html: html)
    }

    static func samplerFigures(_ profile: SamplingProfile) -> String {
        let s = profile.sampler
        let rows: [(String, String)] = [
            ("clock", s.clock),
            ("rate", "\(Format.oneDecimal(s.achievedRateHz)) Hz of \(Format.oneDecimal(s.requestedRateHz)) Hz asked"),
            ("samples", "\(HTMLText.count(s.samples)) (\(HTMLText.count(s.droppedSamples)) dropped, \(HTMLText.count(s.timerOverruns)) timer overruns)"),
            ("sampled time", Format.duration(s.sampledWallMicroseconds)),
            ("cost", "\(Format.oneDecimal(s.costPerSampleNanoseconds / 1000)) µs per sample, overhead \(Format.oneDecimal(s.overheadPercent))%"),
        ]
        var out = "<dl class=\"run sampler\">"
        for (key, value) in rows { out += "<div><dt>\(key)</dt><dd>\(value.html)</dd></div>" }
        out += "</dl>\n"
        for note in profile.notes { out += "<p class=\"hint\">\(note.html)</p>\n" }
        return out
    }

    /// A warm colour per frame name, stable across runs.
    static func flameColor(_ name: String) -> String {
        var hash: UInt32 = 2_166_136_261
        for byte in name.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return "hsl(\(8 + hash % 40) \(60 + (hash >> 8) % 25)% \(52 + (hash >> 16) % 14)%)"
    }
}
