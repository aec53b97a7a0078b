import MemprofOutput
import MemprofCore
import MemprofReport

/// Lifecycle swimlanes: a row per app coloured by state, with marks for launches, resumes,
/// evictions and kills and bars for background handlers. The SVG's x axis is the run scaled to
/// `units` (browsers clamp coordinates past about 2^25, so microseconds cannot be used as they
/// are); the page zooms by changing the `viewBox`, and the script reads a segment's start and
/// length off its `x` and `width`.
struct LaneChart {
    static let rowHeight = 20
    static let units = 1_000_000.0
    static let markKinds: [(SimEvent.Kind, String)] = [(.launch, "launch"), (.resume, "resume"), (.eviction, "eviction"),
                                                        (.exit, "kill"), (.compression, "compression")]

    let report: Report
    let apps: [String]
    let segments: [[LaneSegment]]
    let handlers: [[HandlerInterval]]
    let minLengthUs: Microseconds
    private(set) var causes: [String] = []
    private var causeIndex: [String: Int] = [:]

    init(report: Report, apps: [String], options: HTMLReport.Options) {
        self.report = report
        self.apps = apps
        let duration = max(report.run.durationUs, 1)
        let columns = Int64(max(200, min(4_000, options.laneBudget / max(1, apps.count))))
        let minLength = max(1, duration / columns)
        minLengthUs = minLength
        let intervals = StateIntervals.make(events: report.events, apps: apps, durationUs: report.run.durationUs)
        segments = apps.map { Lanes.segments(intervals[$0] ?? [], minLengthUs: minLength) }
        let runs = StateIntervals.handlers(events: report.events, durationUs: report.run.durationUs)
        handlers = apps.map { app in
            // Handler runs shorter than a column are merged the same way, keeping the first's name.
            var merged: [HandlerInterval] = []
            for run in runs[app] ?? [] {
                if var last = merged.last, run.startUs - last.endUs < minLength,
                   last.endUs - last.startUs < minLength || run.endUs - run.startUs < minLength {
                    last.endUs = max(last.endUs, run.endUs)
                    last.outcome = "several runs"
                    merged[merged.count - 1] = last
                } else {
                    merged.append(run)
                }
            }
            return merged
        }
        causes = [""]
        for lane in segments {
            for segment in lane where causeIndex[segment.cause] == nil {
                causeIndex[segment.cause] = causes.count
                causes.append(segment.cause)
            }
        }
        causeIndex[""] = 0
    }

    /// A time as a lane x coordinate.
    func u(_ t: Microseconds) -> String {
        HTMLText.coordinate(Double(t) * Self.units / Double(max(report.run.durationUs, 1)))
    }

    func html() -> String {
        let duration = max(report.run.durationUs, 1)
        let width = Int(Self.units)
        let height = apps.count * Self.rowHeight
        var out = "<div class=\"lanes\" style=\"--rows:\(apps.count)\">\n<div class=\"lane-labels\">"
        for app in apps {
            out += "<div>\((report.apps[app]?.name ?? app).html)</div>"
        }
        out += "</div>\n<div class=\"lane-plot\"><svg id=\"lanesvg\" class=\"chart\" viewBox=\"0 0 \(width) \(height)\" "
            + "preserveAspectRatio=\"none\" height=\"\(height)\" role=\"img\" aria-label=\"Lifecycle swimlanes\">\n"
        for (row, lane) in segments.enumerated() {
            let top = row * Self.rowHeight
            out += "<g data-row=\"\(row)\">"
            if row % 2 == 1 { out += "<rect class=\"band\" x=\"0\" y=\"\(top)\" width=\"\(width)\" height=\"\(Self.rowHeight)\"/>" }
            for segment in lane where segment.state != .notRunning {
                out += "<rect class=\"s-\(segment.state.rawValue)\(segment.merged > 1 ? " mixed" : "")\" x=\"\(u(segment.startUs))\" "
                    + "y=\"\(top + 3)\" width=\"\(u(segment.endUs - segment.startUs))\" height=\"13\""
                if let cause = causeIndex[segment.cause], cause > 0 { out += " data-c=\"\(cause)\"" }
                if segment.merged > 1 { out += " data-m=\"\(segment.merged)\"" }
                out += "/>"
            }
            for run in handlers[row] {
                out += "<rect class=\"hd\" x=\"\(u(run.startUs))\" y=\"\(top + 16)\" width=\"\(u(max(run.endUs - run.startUs, minLengthUs / 4)))\" "
                    + "height=\"3\" data-h=\"\(run.handler.html)\" data-o=\"\(run.outcome.html)\" data-s=\"\(run.startUs)\" data-e=\"\(run.endUs)\"/>"
            }
            out += "</g>\n"
        }
        out += marks(height: height)
        out += "<rect id=\"lanesel\" x=\"0\" y=\"0\" width=\"0\" height=\"\(height)\" visibility=\"hidden\"/>"
        out += "</svg>\n<div class=\"axis\" id=\"laneaxis\">"
        for tick in Ticks.time(start: 0, end: duration, count: 10) {
            let percent = Double(tick) * 100 / Double(duration)
            out += "<span style=\"left:\(HTMLText.coordinate(percent))%\">\(Format.duration(tick))</span>"
        }
        out += "</div></div>\n</div>\n"
        out += legend()
        return out
    }

    /// One mark per app, kind and column at most.
    func marks(height: Int) -> String {
        let duration = max(report.run.durationUs, 1)
        let rows = Dictionary(uniqueKeysWithValues: apps.enumerated().map { ($1, $0) })
        var seen = Set<String>()
        var out = "<g class=\"lmarks\">"
        for event in report.events {
            guard let app = event.app, let row = rows[app],
                  let kind = Self.markKinds.first(where: { $0.0 == event.kind })?.1 else { continue }
            var name = kind
            var detail = event.detail ?? ""
            if event.kind == .exit {
                guard let reason = event.reason else { continue }
                name = reason == .userQuit ? "quit" : "kill"
                detail = reason.rawValue
            }
            let column = event.atUs * 4_000 / duration
            guard seen.insert("\(row)/\(name)/\(column)").inserted else { continue }
            let top = row * Self.rowHeight
            out += "<line class=\"mk mk-\(name)\" x1=\"\(u(event.atUs))\" x2=\"\(u(event.atUs))\" y1=\"\(top + 1)\" y2=\"\(top + 18)\" "
                + "data-k=\"\(name)\(detail.isEmpty ? "" : " " + detail.html)\" data-t=\"\(event.atUs)\"/>"
        }
        return out + "</g>\n"
    }

    func legend() -> String {
        var out = "<ul class=\"legend\">"
        for state in AppState.allCases where state != .notRunning {
            out += "<li><i class=\"s-\(state.rawValue)\"></i>\(state.rawValue)</li>"
        }
        out += "<li><i class=\"k-hd\"></i>handler running</li>"
        for name in ["launch", "resume", "eviction", "kill", "quit", "compression"] {
            out += "<li><i class=\"k-mk mk-\(name)\"></i>\(name)</li>"
        }
        out += "<li>blank: not running</li>"
        return out + "</ul>\n"
    }

    func writeData(into json: inout JSONWriter) {
        json.raw("{")
        json.key("rowHeight"); json.int(Int64(Self.rowHeight)); json.raw(",")
        json.key("units"); json.number(Self.units); json.raw(",")
        json.key("apps"); json.raw("[")
        for (index, app) in apps.enumerated() {
            if index > 0 { json.raw(",") }
            json.string(report.apps[app]?.name ?? app)
        }
        json.raw("],")
        json.key("causes"); json.raw("[")
        for (index, cause) in causes.enumerated() {
            if index > 0 { json.raw(",") }
            json.string(cause)
        }
        json.raw("]}")
    }
}
