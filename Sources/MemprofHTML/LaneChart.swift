import MemprofCore
import MemprofOutput
import MemprofReport

/// Lifecycle swimlanes: a row per app coloured by state, with marks for launches, resumes,
/// evictions and kills and bars for background handlers.
///
/// Bounded whatever the run's length, like the memory chart: time is cut into at most
/// `laneBudget / apps` columns per lane (200 to 2,000); an interval at least a column long is drawn exactly, and a run of
/// shorter ones becomes one segment showing every state held there, each in its own band of the
/// row (no interval is lost from the picture). Consecutive such segments holding the same states
/// merge. Each state of a lane is one `<path>`; marks and handler bars are one path per kind, at
/// most one per column. The script reads what is under the pointer from `writeData`'s compact
/// arrays (delta-encoded), not from the drawing.
///
/// The SVG's x axis is the run scaled to `units` (browsers clamp coordinates past about 2^25, so
/// microseconds cannot be used as they are); the page zooms by changing the `viewBox`.
struct LaneChart {
    static let rowHeight = 20
    static let units = 1_000_000.0
    static let markKinds = ["launch", "resume", "eviction", "kill", "quit", "compression"]
    /// Which mark a column keeps when several fall in it (higher wins), by `markKinds` index.
    static let markPriority = [2, 1, 4, 5, 0, 3]

    let report: ReportHead
    let apps: [String]
    let segments: [[LaneSegment]]
    let handlers: [[HandlerInterval]]
    let marks: [[(atUs: Microseconds, kind: Int, detail: String)]]
    let minLengthUs: Microseconds
    private(set) var texts: [String] = []
    private var textIndex: [String: Int] = [:]

    /// The lanes of `apps` in the run of `report`, as `drawn` (made as the run streamed, or from
    /// the report held whole, ``LaneDigest/whole(_:apps:options:)``).
    init(report: ReportHead, apps: [String], drawn: LaneDigest.Drawn) {
        self.report = report
        self.apps = apps
        minLengthUs = drawn.minLengthUs
        segments = drawn.segments
        handlers = drawn.handlers
        marks = drawn.marks
        texts = [""]
        textIndex[""] = 0
        func intern(_ text: String) {
            if textIndex[text] == nil {
                textIndex[text] = texts.count
                texts.append(text)
            }
        }
        for lane in segments { for segment in lane { intern(segment.cause) } }
        for lane in handlers { for run in lane { intern(run.handler); intern(run.outcome) } }
        for lane in marks { for mark in lane { intern(mark.detail) } }
    }

    /// Consecutive merged segments holding the same states become one.
    static func coalesce(_ segments: [LaneSegment]) -> [LaneSegment] {
        var out: [LaneSegment] = []
        for segment in segments { LaneDigest.append(segment, to: &out) }
        return out
    }

    /// A time as a lane x coordinate.
    func x(_ t: Microseconds) -> Double {
        Double(t) * Self.units / Double(max(report.run.durationUs, 1))
    }

    private func c(_ v: Double) -> String { HTMLText.coordinate(v) }

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
            let top = Double(row * Self.rowHeight)
            out += "<g data-row=\"\(row)\">"
            if row % 2 == 1 { out += "<rect class=\"band\" x=\"0\" y=\"\(Int(top))\" width=\"\(width)\" height=\"\(Self.rowHeight)\"/>" }
            // One path per state: exact segments fill the row's band, merged ones share it.
            var paths: [AppState: RelativePath] = [:]
            for segment in lane {
                let shown = segment.states.filter { $0 != .notRunning }
                for (rank, state) in shown.enumerated() {
                    let bandHeight = 13.0 / Double(shown.count)
                    let x0 = x(segment.startUs)
                    paths[state, default: RelativePath()].rectangle(x: x0, y: top + 3 + Double(rank) * bandHeight,
                                                                   width: max(x(segment.endUs) - x0, 0.1), height: bandHeight)
                }
            }
            for state in AppState.allCases where paths[state] != nil {
                out += "<path class=\"s-\(state.rawValue)\" d=\"\(paths[state]!.d)\"/>"
            }
            if !handlers[row].isEmpty {
                var path = RelativePath()
                for run in handlers[row] {
                    let x0 = x(run.startUs)
                    path.rectangle(x: x0, y: top + 16, width: max(x(run.endUs) - x0, x(minLengthUs) / 4), height: 3)
                }
                out += "<path class=\"hd\" d=\"\(path.d)\"/>"
            }
            out += "</g>\n"
        }
        out += "<g class=\"lmarks\">"
        for (row, lane) in marks.enumerated() {
            var byKind: [Int: RelativePath] = [:]
            for mark in lane {
                // A tick over the top of the row, so a busy lane's states stay visible under its marks.
                byKind[mark.kind, default: RelativePath()].vertical(x: x(mark.atUs), y: Double(row * Self.rowHeight), length: 7)
            }
            for kind in byKind.keys.sorted() {
                out += "<path class=\"mk mk-\(Self.markKinds[kind])\" d=\"\(byKind[kind]!.d)\"/>"
            }
        }
        out += "</g>\n"
        out += "</svg>\n<div class=\"axis\" id=\"laneaxis\">"
        for tick in Ticks.time(start: 0, end: duration, count: 10) {
            let percent = Double(tick) * 100 / Double(duration)
            out += "<span style=\"left:\(HTMLText.coordinate(percent))%\">\(Format.duration(tick))</span>"
        }
        out += "</div></div>\n</div>\n"
        out += legend()
        return out
    }

    func legend() -> String {
        var out = "<ul class=\"legend\">"
        for state in AppState.allCases where state != .notRunning {
            out += "<li><i class=\"s-\(state.rawValue)\"></i>\(state.rawValue)</li>"
        }
        out += "<li><i class=\"k-hd\"></i>handler running</li>"
        for name in Self.markKinds {
            out += "<li><i class=\"k-mk mk-\(name)\"></i>\(name)</li>"
        }
        out += "<li>blank: not running; a row split in bands: states too short to draw apart, all shown (zoom in)</li>"
        return out + "</ul>\n"
    }

    /// What the script shows under the pointer, per lane, as flat arrays of integers in lane units
    /// (delta-encoded starts): segments `[Δstart, length, statesMask, cause, merged]`, handler
    /// runs `[Δstart, length, handler, outcome]`, marks `[Δat, kind, detail]`; strings by index
    /// into `texts`.
    func writeData(into json: inout JSONWriter) {
        func u(_ t: Microseconds) -> Int64 { Int64(x(t).rounded()) }
        func text(_ value: String) -> Int64 { Int64(textIndex[value] ?? 0) }
        json.raw("{")
        json.key("rowHeight"); json.int(Int64(Self.rowHeight)); json.raw(",")
        json.key("units"); json.number(Self.units); json.raw(",")
        json.key("apps"); json.array(apps) { $0.string(report.apps[$1]?.name ?? $1) }; json.raw(",")
        json.key("states"); json.array(AppState.allCases) { $0.string($1.rawValue) }; json.raw(",")
        json.key("markKinds"); json.array(Self.markKinds) { $0.string($1) }; json.raw(",")
        json.key("texts"); json.array(texts) { $0.string($1) }; json.raw(",")
        json.key("seg")
        Self.writeDelta(segments.map { lane in
            lane.map { segment in
                let mask = segment.states.reduce(Int64(0)) { $0 | 1 << Int64(AppState.allCases.firstIndex(of: $1) ?? 0) }
                return [u(segment.startUs), u(segment.endUs) - u(segment.startUs), mask, text(segment.cause), Int64(segment.merged)]
            }
        }, into: &json)
        json.raw(","); json.key("hd")
        Self.writeDelta(handlers.map { lane in
            lane.map { [u($0.startUs), u($0.endUs) - u($0.startUs), text($0.handler), text($0.outcome)] }
        }, into: &json)
        json.raw(","); json.key("mk")
        Self.writeDelta(marks.map { lane in lane.map { [u($0.atUs), Int64($0.kind), text($0.detail)] } }, into: &json)
        json.raw("}")
    }

    /// Per lane, its records flattened, each record's first field written as the difference from
    /// the previous record's.
    static func writeDelta(_ lanes: [[[Int64]]], into json: inout JSONWriter) {
        json.array(lanes) { json, lane in
            json.raw("[")
            var last: Int64 = 0
            for (index, record) in lane.enumerated() {
                if index > 0 { json.raw(",") }
                json.int(record[0] - last)
                for value in record.dropFirst() {
                    json.raw(",")
                    json.int(value)
                }
                last = record[0]
            }
            json.raw("]")
        }
    }
}

/// SVG path data of many small shapes written with relative moves (short numbers), tracking the
/// pen where the rounded numbers put it so that rounding never accumulates.
struct RelativePath {
    private(set) var d = ""
    private var penX = 0.0
    private var penY = 0.0

    private static func rounded(_ v: Double) -> Double { (v * 10).rounded() / 10 }

    private mutating func move(x: Double, y: Double) {
        let dx = Self.rounded(x - penX), dy = Self.rounded(y - penY)
        d += d.isEmpty ? "M\(HTMLText.coordinate(dx)) \(HTMLText.coordinate(dy))" : "m\(HTMLText.coordinate(dx)) \(HTMLText.coordinate(dy))"
        penX += dx
        penY += dy
    }

    /// A closed rectangle; the pen returns to its corner.
    mutating func rectangle(x: Double, y: Double, width: Double, height: Double) {
        move(x: x, y: y)
        let w = HTMLText.coordinate(Self.rounded(width)), h = HTMLText.coordinate(Self.rounded(height))
        d += "h\(w)v\(h)h-\(w)z"
    }

    /// A vertical line; the pen ends at its bottom.
    mutating func vertical(x: Double, y: Double, length: Double) {
        move(x: x, y: y)
        let l = Self.rounded(length)
        d += "v\(HTMLText.coordinate(l))"
        penY += l
    }
}
