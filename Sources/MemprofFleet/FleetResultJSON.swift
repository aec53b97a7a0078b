import Foundation
import MemprofOutput

/// fleet.json written with memprof's `JSONWriter`: byte for byte what `JSONEncoder` with sorted
/// keys writes for `FleetResult` (`referenceEncoded()`, held to it by a test), in a fraction of the
/// time. A sweep writes it after its runs, on one thread, so its time is not shortened by cores.
extension FleetResult {
    /// fleet.json: sorted keys, no spaces, a final newline.
    public func encoded() throws -> Data {
        let finite = host.wallMs.isFinite && cells.allSatisfy { cell in
            cell.metrics.values.allSatisfy { $0.mean.isFinite && $0.sd.isFinite && $0.shareAboveZero?.isFinite != false }
        } && (weighted ?? []).allSatisfy { total in
            total.metrics.values.allSatisfy { $0.mean.isFinite && $0.shareAboveZero?.isFinite != false }
        }
        guard finite else {  // JSONEncoder refuses NaN and infinities; so does this
            throw EncodingError.invalidValue(Double.nan, .init(codingPath: [], debugDescription: "a statistic is not a finite number"))
        }
        var out = JSONWriter(capacity: 256 + 320 * cells.reduce(0) { $0 + $1.metrics.count })
        FleetJSON.write(self, &out)
        out.byte(UInt8(ascii: "\n"))
        return Data(out.bytes)
    }

    /// The same JSON written by `JSONEncoder`: the reference `encoded()` is held to.
    public func referenceEncoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(self)
        data.append(UInt8(ascii: "\n"))
        return data
    }
}

/// The members of every fleet.json object, in the order `JSONEncoder` sorts their keys.
enum FleetJSON {
    static func write(_ r: FleetResult, _ out: inout JSONWriter) {
        out.object { o in
            o.key("cells")
            o.buffer.array(r.cells) { b, cell in write(cell, &b) }
            o.key("host")
            write(r.host, &o.buffer)
            o.key("runsFile")
            o.buffer.object { f in
                f.key("columns")
                f.buffer.array(r.runsFile.columns) { $0.string($1) }
                f.string("name", r.runsFile.name)
                f.int("rows", Int64(r.runsFile.rows))
            }
            o.string("schema", r.schema)
            if let shard = r.shard {
                o.key("shard")
                o.buffer.object { s in
                    s.int("of", Int64(shard.of))
                    s.key("parts")
                    s.buffer.array(shard.parts) { $0.int($1) }
                }
            }
            o.key("sweep")
            write(r.sweep, &o.buffer)
            o.key("tool")
            o.buffer.object { t in
                t.string("name", r.tool.name)
                t.string("version", r.tool.version)
            }
            if let weighted = r.weighted {
                o.key("weighted")
                o.buffer.array(weighted) { b, total in write(total, &b) }
            }
        }
    }

    private static func write(_ days: FleetResult.MemoryKillDays, _ b: inout JSONWriter) {
        b.object { d in
            d.key("all")
            number(days.all, &d.buffer)
            d.key("apps")
            d.buffer.object { a in
                for (app, share) in days.apps.sorted(by: { $0.key < $1.key }) {
                    a.key(app)
                    number(share, &a.buffer)
                }
            }
        }
    }

    private static func write(_ total: FleetResult.WeightedTotal, _ b: inout JSONWriter) {
        b.object { t in
            t.key("cells")
            t.buffer.array(total.cells) { $0.int($1) }
            t.string("label", total.label)
            if let days = total.memoryKillDays {
                t.key("memoryKillDays")
                write(days, &t.buffer)
            }
            t.key("metrics")
            t.buffer.object { m in
                for (name, stats) in total.metrics.sorted(by: { $0.key < $1.key }) {
                    m.key(name)
                    m.buffer.object { s in
                        s.key("mean")
                        number(stats.mean, &s.buffer)
                        if let share = stats.shareAboveZero {
                            s.key("shareAboveZero")
                            number(share, &s.buffer)
                        }
                    }
                }
            }
        }
    }

    /// A Double as `JSONEncoder` writes it: Swift's shortest round-trip form, without a final ".0".
    static func number(_ value: Double, _ b: inout JSONWriter) {
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        b.rawText(text)
    }

    private static func overrides(_ list: [FleetResult.Override], _ b: inout JSONWriter) {
        b.array(list) { b, o in
            b.object { m in
                m.string("keyPath", o.keyPath)
                m.string("value", o.value)
            }
        }
    }

    private static func int64s(_ values: [String: Int64], _ b: inout JSONWriter) {
        b.object { m in
            for (name, value) in values.sorted(by: { $0.key < $1.key }) {
                m.key(name)
                m.buffer.int(value)
            }
        }
    }

    private static func write(_ cell: FleetResult.Cell, _ b: inout JSONWriter) {
        b.object { c in
            c.int("index", Int64(cell.index))
            c.string("label", cell.label)
            if let days = cell.memoryKillDays {
                c.key("memoryKillDays")
                write(days, &c.buffer)
            }
            c.key("metrics")
            c.buffer.object { m in
                for (name, stats) in cell.metrics.sorted(by: { $0.key < $1.key }) {
                    m.key(name)
                    write(stats, &m.buffer)
                }
            }
            c.key("overrides")
            overrides(cell.overrides, &c.buffer)
            if let share = cell.populationShare {
                c.key("populationShare")
                number(share, &c.buffer)
            }
            c.int("runs", Int64(cell.runs))
        }
    }

    private static func write(_ s: FleetResult.MetricStats, _ b: inout JSONWriter) {
        b.object { m in
            m.int("count", Int64(s.count))
            m.string("direction", s.direction.rawValue)
            m.string("kind", s.kind.rawValue)
            m.int("max", s.max)
            m.key("mean")
            number(s.mean, &m.buffer)
            m.int("min", s.min)
            m.int("p5", s.p5)
            m.int("p50", s.p50)
            m.int("p95", s.p95)
            m.int("p99", s.p99)
            m.key("sd")
            number(s.sd, &m.buffer)
            if let share = s.shareAboveZero {
                m.key("shareAboveZero")
                number(share, &m.buffer)
            }
            m.key("worst")
            m.buffer.array(s.worst) { b, w in
                b.object { o in
                    o.string("replay", w.replay)
                    o.key("seed")
                    o.buffer.rawText(String(w.seed))
                    o.int("value", w.value)
                }
            }
        }
    }

    private static func write(_ h: FleetResult.Host, _ b: inout JSONWriter) {
        b.object { o in
            o.string("generatedAt", h.generatedAt)
            o.string("hostname", h.hostname)
            if let failures = h.measuredWorkFailures {
                o.key("measuredWorkFailures")
                o.buffer.object { f in
                    for (key, failure) in failures.sorted(by: { $0.key < $1.key }) {
                        f.key(key)
                        f.buffer.string(failure)
                    }
                }
            }
            if let peaks = h.measuredWorkPeakBytes {
                o.key("measuredWorkPeakBytes")
                int64s(peaks, &o.buffer)
            }
            o.key("measuredWorkUs")
            int64s(h.measuredWorkUs, &o.buffer)
            o.int("processors", Int64(h.processors))
            o.int("threads", Int64(h.threads))
            o.key("wallMs")
            number(h.wallMs, &o.buffer)
        }
    }

    private static func write(_ s: FleetResult.Sweep, _ b: inout JSONWriter) {
        b.object { o in
            o.string("fingerprint", s.fingerprint)
            o.key("matrix")
            o.buffer.array(s.matrix) { b, axis in
                b.object { a in
                    a.string("keyPath", axis.keyPath)
                    a.key("values")
                    a.buffer.array(axis.values) { $0.string($1) }
                }
            }
            if let mix = s.mix {
                o.key("mix")
                o.buffer.array(mix) { b, axis in
                    b.object { a in
                        a.string("keyPath", axis.keyPath)
                        a.key("shares")
                        a.buffer.object { m in
                            for (value, share) in axis.shares.sorted(by: { $0.key < $1.key }) {
                                m.key(value)
                                number(share, &m.buffer)
                            }
                        }
                    }
                }
            }
            o.string("name", s.name)
            o.key("overrides")
            overrides(s.overrides, &o.buffer)
            o.int("runs", Int64(s.runs))
            o.int("seedCount", Int64(s.seedCount))
            o.string("seeds", s.seeds)
            o.string("workload", s.workload)
            o.string("workloadSha256", s.workloadSha256)
            o.int("worst", Int64(s.worst))
        }
    }
}
