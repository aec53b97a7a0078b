import MemprofCore
import MemprofOutput

/// The terminal table `memprof field` prints and the field.json it writes.
extension FieldSummary {
    /// Per cell: its days, then every exit counter with exits (and the memory-pressure counter,
    /// zero or not) per 1,000 days with its interval, time and launches a day, memory.
    public var text: String {
        var out = "\(payloads) payload\(payloads == 1 ? "" : "s") in \(files) file\(files == 1 ? "" : "s"), "
            + "\(cells.count) cell\(cells.count == 1 ? "" : "s") (app, device, OS); a payload is one device-day\n"
        for cell in cells {
            let app = cell.app == "-" ? "payloads without a bundleIdentifier" : cell.app
            out += "\n\(app) on \(cell.deviceType), \(cell.osVersion): \(Self.days(cell.days))\n"
            if cell.exitDays == 0 { out += "  no applicationExitMetrics in these payloads\n" }
            var rows: [[String]] = [["exits per 1,000 days", "side", "exits", "rate", "95% interval", "by"]]
            for e in cell.exits where e.rate.total > 0 || e.counter == MetricKitSchema.memoryPressure && e.side == "background" {
                rows.append([Self.reason(e.counter), e.side, Self.number(e.rate.total), Self.number(e.rate.perDay * 1000),
                             "\(Self.number(e.rate.low * 1000)) – \(Self.number(e.rate.high * 1000))", e.rate.method.rawValue])
            }
            if cell.exitDays > 0 && cell.exitDays < cell.days { rows.append(["(exits from \(cell.exitDays) of the days)", "", "", "", "", ""]) }
            if cell.exitDays > 0 { out += TextTable.render(rows, rightAligned: [2, 3, 4]).map { "  " + $0 + "\n" }.joined() }
            var daily: [[String]] = [["per day", "days", "mean", "sd", "95% interval"]]
            for d in cell.time {
                daily.append([d.key.replacingOccurrences(of: "Seconds", with: ""), "\(d.days)", Self.minutes(d.rate.perDay),
                              Self.minutes(d.standardDeviation), "\(Self.minutes(d.rate.low)) – \(Self.minutes(d.rate.high))"])
            }
            for d in cell.launches {
                daily.append([Self.launchName(d.key), "\(d.days)", Self.number(d.rate.perDay), Self.number(d.standardDeviation),
                              "\(Self.number(d.rate.low)) – \(Self.number(d.rate.high))"])
            }
            if daily.count > 1 { out += TextTable.render(daily, rightAligned: [1, 2, 3, 4]).map { "  " + $0 + "\n" }.joined() }
            if let p = cell.peak {
                out += "  peak memory (\(Self.days(p.days))): mean \(Self.mb(p.meanBytes)), sd \(Self.mb(p.standardDeviationBytes)), "
                    + "p50 \(Self.mb(p.p50Bytes)), p95 \(Self.mb(p.p95Bytes)), max \(Self.mb(p.maxBytes))\n"
            }
            if let s = cell.suspended, s.sampleCount == 0 {
                out += "  suspended memory: no suspensions on \(Self.days(cell.suspendedDays))\n"
            } else if let s = cell.suspended {
                out += "  suspended memory (\(s.sampleCount) suspensions on \(Self.days(cell.suspendedDays))): "
                    + "mean \(Self.mb(Double(s.averageBytes))), sd \(Self.mb(Double(s.standardDeviationBytes)))\n"
            }
        }
        return out
    }

    static func days(_ n: Int) -> String { n == 1 ? "1 day" : "\(n) days" }

    /// `cumulativeMemoryPressureExitCount` → `memory pressure`.
    public static func reason(_ counter: String) -> String {
        var name = counter
        if name.hasPrefix("cumulative") { name.removeFirst("cumulative".count) }
        if name.hasSuffix("ExitCount") { name.removeLast("ExitCount".count) }
        var out = ""
        for (i, c) in name.enumerated() {
            let previous = i > 0 ? name[name.index(name.startIndex, offsetBy: i - 1)] : " "
            if c.isUppercase && i > 0 && !previous.isUppercase { out += " " }
            out.append(c)
        }
        return out.lowercased()
    }

    static func launchName(_ key: String) -> String {
        switch key {
        case "timeToFirstDraw": "launches"
        case "optimizedTimeToFirstDraw": "optimized launches"
        case "resumes": "resumes"
        default: "extended launches"
        }
    }

    /// A figure as the field's and the calibration's tables and pages print it: a whole number
    /// as it is (`0`, `312`), else no decimals from 100, one from 10, two below (half away from
    /// zero: `5.99`, `46.1`, `638`); `-` when not finite.
    public static func number(_ v: Double) -> String {
        guard v.isFinite else { return "-" }
        if v == v.rounded() && abs(v) < 1e15 { return String(Int64(v)) }
        let digits = abs(v) >= 100 ? 0 : abs(v) >= 10 ? 1 : 2
        return fixed(v, digits)
    }

    static func minutes(_ seconds: Double) -> String {
        seconds >= 60 ? fixed(seconds / 60, 1) + " min" : fixed(seconds, 0) + " s"
    }

    /// `v` with `digits` decimals (half away from zero).
    static func fixed(_ v: Double, _ digits: Int) -> String {
        guard v.isFinite, abs(v) < 1e15 else { return "-" }
        let scale = [1.0, 10, 100, 1000][min(max(digits, 0), 3)]
        let scaled = Int64((abs(v) * scale).rounded())
        let whole = scaled / Int64(scale), fraction = scaled % Int64(scale)
        var text = (v < 0 && scaled != 0 ? "-" : "") + String(whole)
        if digits > 0 {
            let f = String(fraction)
            text += "." + String(repeating: "0", count: digits - f.count) + f
        }
        return text
    }

    static func mb(_ bytes: Double) -> String { fixed(bytes / 1e6, 1) + " MB" }

    /// field.json (`memprof.field/1`): what `memprof field` printed, as numbers, for tools and
    /// for a calibration to read. Rates per device-day; sizes in bytes; times in seconds.
    public var json: String {
        var layout = JSONLayout()
        layout.object(indent: 0) { top in
            top.string("schema", Self.schema)
            top.int("files", files)
            top.int("payloads", payloads)
            top.array("cells", cells) { c, cell in
                c.string("app", cell.app)
                c.string("deviceType", cell.deviceType)
                c.string("osVersion", cell.osVersion)
                c.int("days", cell.days)
                c.int("exitDays", cell.exitDays)
                c.array("exits", cell.exits) { e, exit in
                    e.string("side", exit.side)
                    e.string("counter", exit.counter)
                    Self.rate(&e, exit.rate)
                }
                c.array("time", cell.time) { d, daily in Self.daily(&d, daily) }
                c.array("launches", cell.launches) { d, daily in Self.daily(&d, daily) }
                if let p = cell.peak {
                    c.object("peakMemory") { m in
                        m.int("days", p.days)
                        for (k, v) in [("meanBytes", p.meanBytes), ("standardDeviationBytes", p.standardDeviationBytes), ("p50Bytes", p.p50Bytes),
                                       ("p95Bytes", p.p95Bytes), ("maxBytes", p.maxBytes)] { m.int(k, MetricKitExport.clamped(v)) }
                    }
                }
                if let s = cell.suspended {
                    c.object("suspendedMemory") { m in
                        m.int("days", cell.suspendedDays)
                        m.int("sampleCount", s.sampleCount)
                        m.int("averageBytes", s.averageBytes)
                        m.int("standardDeviationBytes", s.standardDeviationBytes)
                    }
                }
            }
        }
        return layout.text + "\n"
    }

    static func rate(_ m: inout JSONLayout.Members, _ r: Rate) {
        m.double("total", r.total)
        m.double("perDay", r.perDay)
        m.double("low", r.low)
        m.double("high", r.high)
        m.string("interval", r.method.rawValue)
    }

    static func daily(_ m: inout JSONLayout.Members, _ d: Daily) {
        m.string("key", d.key)
        m.int("days", d.days)
        rate(&m, d.rate)
        m.double("standardDeviation", d.standardDeviation)
    }
}
