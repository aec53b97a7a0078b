import MemprofCore
import MemprofProfile
import MemprofReport

// The stack-samples section: when the report carries a `profile` with
// samples, a flame graph per app and handler and the sampler's own figures. The graphs are data
// (`FlameGraphs`) that the page's script lays out and draws.

extension HTMLReport {
    /// The flame graphs of `report`, or nil when it has no samples; `handlerRuns` places its
    /// handlers' runs (``FlameGraphs/handlerRuns(_:durationUs:)``).
    static func flameGraphs(for report: ReportHead, handlerRuns runs: [String: [Microseconds]]) -> FlameGraphs? {
        guard let profile = report.profile, profile.hasSamples || profile.hasAllocations else { return nil }
        var graphs = FlameGraphs()
        for (index, handler) in profile.handlers.enumerated() {
            let handlerRuns = runs[handler.app + "\u{0}" + handler.handler] ?? []
            if !handler.stacks.isEmpty {
                graphs.add(id: "flame-\(index)", stacks: FlameGraphs.stacks(handler, in: profile), runs: handlerRuns,
                           times: FlameGraphs.times(handler))
            }
            for metric in allocationGraphMetrics {
                let stacks = allocationStacks(handler, metric, in: profile)
                if !stacks.isEmpty { graphs.add(id: "flame-\(index)-\(metric.rawValue)", stacks: stacks, runs: handlerRuns) }
            }
        }
        graphs.boundTimes()
        return graphs
    }

    /// The allocation flame graphs beside the CPU one (spec §8.1): bytes allocated, and bytes in
    /// use at the program's peak.
    static let allocationGraphMetrics: [AllocationMetric] = [.allocatedBytes, .peakBytes]

    /// A handler's allocation stacks weighed by `metric`, with frame names.
    static func allocationStacks(_ handler: HandlerProfile, _ metric: AllocationMetric,
                                 in profile: SamplingProfile) -> [(frames: [String], count: Int)] {
        (handler.allocations?.stacks ?? []).compactMap { stack in
            let value = metric.value(of: stack)
            guard value > 0 else { return nil }
            // Call sites are stable per stack, so each box names its file:line when DWARF gave one.
            let frames = profile.frames(of: stack).map { frame in
                guard let file = frame.file, let line = frame.line else { return frame.name }
                return "\(frame.name) \(file.split(separator: "/").last.map(String.init) ?? file):\(line)"
            }
            return (frames: frames, count: Int(clamping: value))
        }
    }

    /// The flame-graph section for a report with stack samples, or nil when it has none.
    static func profileSection(for report: ReportHead) -> HTMLSection? {
        guard let profile = report.profile, profile.hasSamples || profile.hasAllocations else { return nil }
        let names = report.apps.mapValues(\.name)
        var html = samplerFigures(profile) + FlameGraphs.controls
        for (index, handler) in profile.handlers.enumerated() where !handler.stacks.isEmpty {
            let total = handler.stacks.reduce(0) { $0 + $1.count }
            let app = names[handler.app] ?? handler.app
            html += "<div class=\"flame-box\" id=\"box-flame-\(index)\"><h3 class=\"flame-title\">\(app.html) · \(handler.handler.html) <small>\(handler.kernel.html) · "
                + "\(HTMLText.count(total)) samples · \(handler.runs) run\(handler.runs == 1 ? "" : "s") · "
                + "wall \(Format.duration(handler.wallMicroseconds)) · cpu \(Format.duration(handler.cpuMicroseconds))"
                + " <span class=\"flame-note\"></span></small></h3>\n"
            html += "<svg class=\"flame\" id=\"flame-\(index)\" viewBox=\"0 0 1400 17\" role=\"img\" "
                + "aria-label=\"Flame graph of \(app.html) \(handler.handler.html)\"></svg></div>\n"
        }
        for (index, handler) in profile.handlers.enumerated() {
            guard let allocations = handler.allocations else { continue }
            let app = names[handler.app] ?? handler.app
            for metric in allocationGraphMetrics where !allocationStacks(handler, metric, in: profile).isEmpty {
                let id = "flame-\(index)-\(metric.rawValue)"
                let total = metric == .peakBytes ? allocations.peakBytes : allocations.allocatedBytes
                html += "<div class=\"flame-box\" id=\"box-\(id)\"><h3 class=\"flame-title\">\(app.html) · \(handler.handler.html) "
                    + "<small>\(metric.title.html): \(Format.bytes(total).html) · "
                    + "\(Format.bytes(allocations.leakedBytes).html) held at exit"
                    + " <span class=\"flame-note\"></span></small></h3>\n"
                html += "<svg class=\"flame\" id=\"\(id)\" viewBox=\"0 0 1400 17\" role=\"img\" "
                    + "aria-label=\"Allocation flame graph (\(metric.title.html)) of \(app.html) \(handler.handler.html)\"></svg></div>\n"
            }
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
}
