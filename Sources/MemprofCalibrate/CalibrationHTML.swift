import Foundation
import MemprofField
import MemprofFleet
import MemprofHTML
import MemprofOutput

/// calibration.html, written beside calibration.json: one self-contained page (no script, no
/// request), light and dark. How the search ended; the fitted parameters with their intervals
/// and each one's profile (the objective along it, with the 95% bound); for every cell and
/// counter the field's rate per 1,000 device-days against the simulation's at the fitted values,
/// each with its 95% interval, drawn on one axis per row; the path of the search (the objective
/// of every evaluation in order, by phase).
public enum CalibrationHTML {
    public static func page(_ c: Calibration) -> String {
        var body = "<main id=\"calibration\">\n<h1>\(esc(c.sweep.name)) <span>memprof calibrate</span></h1>\n"
        body += "<p class=\"outcome \(c.outcome.rawValue)\" id=\"outcome\"><b>\(esc(outcomeWord(c.outcome)))</b> \(esc(c.stop))</p>\n"
        body += "<p class=\"note\">The team's app <code>\(esc(c.app.key))</code> (\(esc(c.app.bundleIdentifier))); "
            + "\(c.field.matchedDays) of \(c.field.days) device-days from \(c.field.payloads) payloads in "
            + "\(c.field.paths.map { "<code>\(esc($0))</code>" }.joined(separator: ", ")); seeds \(esc(c.seeds.text)) "
            + "(\(c.seeds.count), the same in every evaluation); objective \(number(c.objective.value)) over "
            + "\(c.objective.statistics) statistics, 95% bound \(number(c.objective.bound)); \(c.budget.used) of "
            + "\(c.budget.evaluations) search evaluations, \(c.budget.profile) for the profiles, \(c.budget.final) final.</p>\n"
        for u in c.field.unmatched {
            body += "<p class=\"note\">No cell of the sweep runs \(esc(u.deviceType)) \(esc(u.osVersion)) (\(u.days) days of the field).</p>\n"
        }
        body += parameters(c) + measured(c) + cells(c) + path(c) + "</main>\n"
        return HTMLPage.document(title: "memprof calibrate: \(c.sweep.name)", kind: "calibration", body: body, style: style)
    }

    static let style = """
        .note{color:var(--muted)}code{font-size:12px;word-break:break-all}#measured code,#measured td:first-child{white-space:nowrap;word-break:normal}
        .outcome b{padding:2px 8px;border-radius:4px;color:#fff}.outcome.fit b{background:var(--ok)}
        .outcome.noFit b,.outcome.budgetSpent b{background:var(--bad)}
        .grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(360px,100%),1fr));gap:1em}
        figure{margin:0}figcaption{color:var(--muted);margin-bottom:4px}svg{max-width:100%;height:auto}
        svg text{font:11px system-ui,sans-serif;fill:var(--muted)}.axis{stroke:var(--muted);stroke-width:1}
        .bound{stroke:var(--bad);stroke-dasharray:4 3}.curve{fill:none;stroke:var(--comp);stroke-width:2}
        .field{stroke:var(--fg);stroke-width:6;stroke-linecap:butt;opacity:.35}.sim{stroke:var(--comp);stroke-width:2}
        .fdot{fill:var(--fg)}.sdot{fill:var(--comp)}
        td.in{color:var(--ok)}td.out{color:var(--bad)}
        .pilot{fill:var(--muted)}.design{fill:var(--warn)}.search{fill:var(--comp)}.profile{fill:var(--hd)}.final{fill:var(--ok)}
        .legend span{margin-right:1em}
        """

    static func esc(_ s: String) -> String { HTMLEscape.text(s) }

    static func outcomeWord(_ o: Calibration.Outcome) -> String {
        switch o {
        case .fit: "fit"
        case .noFit: "no fit"
        case .budgetSpent: "budget spent"
        }
    }

    static func number(_ v: Double) -> String { FieldSummary.number(v) }

    /// A table of the fitted parameters, and each one's profile.
    static func parameters(_ c: Calibration) -> String {
        var out = "<section id=\"parameters\">\n<h2>Fitted parameters</h2>\n<div class=\"scroll\"><table>\n<thead><tr>"
            + "<th>key</th><th>declared range</th><th>fitted (95% interval)</th><th>constrained by the field</th></tr></thead>\n<tbody>\n"
        for p in c.parameters {
            out += "<tr><td><code>\(esc(p.key))</code></td><td>\(esc(p.lowText)) – \(esc(p.highText))</td>"
                + "<td>\(esc(CalibratedSweep.describe(p)))</td><td>\(p.constrained ? "yes" : "no: its whole range fits")</td></tr>\n"
        }
        out += "</tbody></table></div>\n<div class=\"grid\">\n"
        for p in c.parameters where p.profile.count > 1 { out += profile(p, bound: c.objective.bound) }
        return out + "</div>\n</section>\n"
    }

    /// The objective along one parameter, the others at their fit, with the 95% bound.
    static func profile(_ p: Calibration.Parameter, bound: Double) -> String {
        let w = 360.0, h = 180.0, left = 48.0, bottom = 24.0, top = 10.0, right = 10.0
        let points = p.profile.sorted { $0.value < $1.value }
        let xs = points.map(\.value), ys = points.map(\.objective) + [bound]
        let x0 = xs.min()!, x1 = max(xs.max()!, x0 + 1), y1 = max(ys.max()!, 1e-9)
        func x(_ v: Double) -> Double { left + (v - x0) / (x1 - x0) * (w - left - right) }
        func y(_ v: Double) -> Double { h - bottom - v / y1 * (h - bottom - top) }
        var svg = "<figure class=\"profile\"><figcaption>Profile of <code>\(esc(p.key))</code>: the objective (dashed: the 95% bound)</figcaption>"
            + "<svg viewBox=\"0 0 \(Int(w)) \(Int(h))\" role=\"img\" aria-label=\"objective along \(esc(p.key))\">"
            + "<line class=\"axis\" x1=\"\(left)\" y1=\"\(h - bottom)\" x2=\"\(w - right)\" y2=\"\(h - bottom)\"/>"
            + "<line class=\"bound\" x1=\"\(left)\" y1=\"\(f(y(bound)))\" x2=\"\(w - right)\" y2=\"\(f(y(bound)))\"/>"
        svg += "<polyline class=\"curve\" points=\"" + points.map { "\(f(x($0.value))),\(f(y($0.objective)))" }.joined(separator: " ") + "\"/>"
        for pt in points {
            svg += "<circle class=\"search\" cx=\"\(f(x(pt.value)))\" cy=\"\(f(y(pt.objective)))\" r=\"3\"><title>"
                + "\(esc(CalibratedSweep.human(pt.value, kind: p.kind))): objective \(number(pt.objective))</title></circle>"
        }
        svg += "<text x=\"\(left)\" y=\"\(h - 6)\">\(esc(CalibratedSweep.human(x0, kind: p.kind)))</text>"
            + "<text x=\"\(w - right)\" y=\"\(h - 6)\" text-anchor=\"end\">\(esc(CalibratedSweep.human(x1, kind: p.kind)))</text>"
            + "<text x=\"4\" y=\"\(top + 8)\">\(number(y1))</text><text x=\"4\" y=\"\(h - bottom)\">0</text>"
        return svg + "</svg></figure>\n"
    }

    /// What the field sets, per cell (its own days, or pooled for a cell without any): a row a
    /// cell and key, with the value's source.
    static func measured(_ c: Calibration) -> String {
        let rows = c.cells.flatMap { cell in (cell.measured ?? c.measured).map { (cell.label, $0) } }
        guard !rows.isEmpty else { return "" }
        return "<section id=\"measured\">\n<h2>Set from the field, per cell</h2>\n<div class=\"scroll\"><table>\n"
            + "<thead><tr><th>cell</th><th>key</th><th>value</th><th>from</th></tr></thead>\n<tbody>\n"
            + rows.map { label, m in
                "<tr><td>\(esc(label))</td><td><code>\(esc(m.key))</code></td><td class=\"num\">\(esc(Calibration.words(m.value)))</td>"
                    + "<td>\(esc(m.source))</td></tr>\n"
            }.joined()
            + "</tbody></table></div>\n</section>\n"
    }

    /// Per cell, every counter (per 1,000 device-days) and time (seconds a day): the field's
    /// rate and interval against the simulation's, a row each, drawn on the row's own axis.
    static func cells(_ c: Calibration) -> String {
        var out = "<section id=\"cells\">\n<h2>Field against simulation, per cell</h2>\n"
            + "<p class=\"note\">Rates per 1,000 device-days (times: seconds a day), each with its 95% interval; in the bars, "
            + "the wide grey one is the field's interval and dot, the thin blue one the simulation's at the fitted values.</p>\n"
        for cell in c.cells {
            let role = switch cell.role {
            case .fit: "fitted"
            case .heldOut: "held out: a prediction against the field"
            case .noField: "no field: a prediction"
            }
            let inside = cell.inside.map { $0 ? ", every rate inside the field's interval" : ", some rate outside the field's interval" } ?? ""
            out += "<h3>\(esc(cell.label)) <span class=\"note\">\(esc(cell.deviceType)) \(esc(cell.osVersions.joined(separator: ", "))); "
                + "\(esc(role)); \(cell.days) days, share \(FleetSummary.percent(cell.share))\(esc(inside)); objective part \(number(cell.objective))</span></h3>\n"
            out += "<div class=\"scroll\"><table class=\"stats\">\n<thead><tr><th>side</th><th>counter</th><th>field</th><th>simulated</th>"
                + "<th>residual</th><th>objective part</th><th>inside</th><th>intervals</th></tr></thead>\n<tbody>\n"
            for s in cell.statistics + cell.time {
                let scale = s.side == "time" ? 1.0 : 1000
                func rate(_ r: Calibration.Rate?) -> String {
                    guard let r else { return "–" }
                    return "\(number(r.perDay * scale)) (\(number(r.low * scale)) – \(number(r.high * scale)))"
                }
                let name = s.side == "time" ? s.counter.replacingOccurrences(of: "Seconds", with: "") : FieldSummary.reason(s.counter)
                let inside = s.inside.map { $0 ? "<td class=\"in\">yes</td>" : "<td class=\"out\">no</td>" } ?? "<td>–</td>"
                out += "<tr><td>\(esc(s.side))</td><td>\(esc(name))</td><td class=\"num\">\(rate(s.field))</td>"
                    + "<td class=\"num\">\(rate(s.simulated))</td><td class=\"num\">\(s.residual.map { number($0 * scale) } ?? "–")</td>"
                    + "<td class=\"num\">\(s.contribution.map(number) ?? "–")</td>\(inside)<td>\(bars(s, scale: scale))</td></tr>\n"
            }
            out += "</tbody></table></div>\n"
        }
        return out + "</section>\n"
    }

    /// The field's interval and the simulation's on one axis from 0.
    static func bars(_ s: Calibration.Statistic, scale: Double) -> String {
        let w = 160.0, h = 18.0
        let top = max([s.field?.high ?? 0, s.simulated.high, s.field?.perDay ?? 0, s.simulated.perDay].max()!, 1e-12)
        func x(_ v: Double) -> String { f(4 + max(v, 0) / top * (w - 8)) }
        var svg = "<svg class=\"bars\" viewBox=\"0 0 \(Int(w)) \(Int(h))\" width=\"\(Int(w))\" height=\"\(Int(h))\" role=\"img\">"
        if let r = s.field {
            svg += "<line class=\"field\" x1=\"\(x(r.low))\" y1=\"6\" x2=\"\(x(r.high))\" y2=\"6\"/><circle class=\"fdot\" cx=\"\(x(r.perDay))\" cy=\"6\" r=\"3\">"
                + "<title>field \(number(r.perDay * scale))</title></circle>"
        }
        svg += "<line class=\"sim\" x1=\"\(x(s.simulated.low))\" y1=\"13\" x2=\"\(x(s.simulated.high))\" y2=\"13\"/>"
            + "<circle class=\"sdot\" cx=\"\(x(s.simulated.perDay))\" cy=\"13\" r=\"3\"><title>simulated \(number(s.simulated.perDay * scale))</title></circle>"
        return svg + "</svg>"
    }

    /// The objective of every evaluation in order, coloured by phase, on a log scale (it spans
    /// orders of magnitude between the design's corners and the fit), with the 95% bound.
    static func path(_ c: Calibration) -> String {
        guard !c.evaluations.isEmpty else { return "" }
        let w = 720.0, h = 240.0, left = 48.0, bottom = 24.0, top = 10.0, right = 10.0
        let ys = c.evaluations.map { log10(1 + $0.objective) } + [log10(1 + c.objective.bound)]
        let y1 = max(ys.max()!, 1e-9), n = Double(max(c.evaluations.count - 1, 1))
        func x(_ i: Int) -> String { f(left + Double(i) / n * (w - left - right)) }
        func y(_ v: Double) -> String { f(h - bottom - log10(1 + v) / y1 * (h - bottom - top)) }
        var out = "<section id=\"search\">\n<h2>The path of the search</h2>\n<figure><figcaption>The objective of each evaluation in order "
            + "(log scale; dashed: the 95% bound). <span class=\"legend\">" + ["pilot", "design", "search", "profile", "final"].map {
                "<span><svg width=\"10\" height=\"10\"><circle class=\"\($0)\" cx=\"5\" cy=\"5\" r=\"4\"/></svg> \($0)</span>"
            }.joined() + "</span></figcaption>"
        out += "<svg viewBox=\"0 0 \(Int(w)) \(Int(h))\" role=\"img\" aria-label=\"objective per evaluation\">"
            + "<line class=\"axis\" x1=\"\(left)\" y1=\"\(h - bottom)\" x2=\"\(w - right)\" y2=\"\(h - bottom)\"/>"
            + "<line class=\"bound\" x1=\"\(left)\" y1=\"\(y(c.objective.bound))\" x2=\"\(w - right)\" y2=\"\(y(c.objective.bound))\"/>"
        for (i, e) in c.evaluations.enumerated() {
            let values = zip(c.parameters, e.values).map { "\($0.key) = \(CalibratedSweep.human($1, kind: $0.kind))" }.joined(separator: ", ")
            out += "<circle class=\"\(esc(e.phase)) point\" cx=\"\(x(i))\" cy=\"\(y(e.objective))\" r=\"4\"><title>evaluation \(e.index) (\(esc(e.phase))): "
                + "\(esc(values)); objective \(number(e.objective))\(e.inside ? ", inside" : "")</title></circle>"
        }
        out += "<text x=\"\(left)\" y=\"\(h - 6)\">1</text><text x=\"\(w - right)\" y=\"\(h - 6)\" text-anchor=\"end\">\(c.evaluations.count)</text>"
            + "<text x=\"4\" y=\"\(top + 8)\">\(number(pow(10, y1) - 1))</text><text x=\"4\" y=\"\(h - bottom)\">0</text></svg></figure>\n"
        out += "<div class=\"scroll\"><table id=\"evaluations\">\n<thead><tr><th>#</th><th>phase</th>"
            + c.parameters.map { "<th><code>\(esc($0.key))</code></th>" }.joined() + "<th>objective</th><th>inside</th></tr></thead>\n<tbody>\n"
        for e in c.evaluations {
            out += "<tr><td class=\"num\">\(e.index)</td><td>\(esc(e.phase))</td>"
                + zip(c.parameters, e.values).map { "<td class=\"num\">\(esc(CalibratedSweep.human($1, kind: $0.kind)))</td>" }.joined()
                + "<td class=\"num\">\(number(e.objective))</td><td>\(e.inside ? "yes" : "no")</td></tr>\n"
        }
        return out + "</tbody></table></div>\n</section>\n"
    }

    static func f(_ v: Double) -> String { String(format: "%.1f", v) }
}
