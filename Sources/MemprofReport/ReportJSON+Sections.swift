import MemprofOutput
import MemprofCore

/// Hand-written encoders for the report's large sections: events, the timeline and jetsam
/// snapshots. Keys are written in sorted order, as `JSONEncoder` with `.sortedKeys` would.
extension JSONWriter {
    public mutating func write(_ event: SimEvent) {
        if writeCommon(event) { return }
        let e = event.fields
        object { o in
            o.string("action", e.action)
            o.string("app", e.app)
            o.int("atUs", e.atUs)
            o.int("bytes", e.bytes)
            o.string("callback", e.callback?.rawValue)
            if let candidates = e.candidates {
                o.key("candidates")
                o.buffer.array(candidates) { b, c in b.write(c) }
            }
            o.string("cause", e.cause)
            o.int("compressedBytes", e.compressedBytes)
            o.string("detail", e.detail)
            o.int("freedBytes", e.freedBytes)
            o.string("from", e.from?.rawValue)
            o.string("handler", e.handler)
            o.string("kind", e.kind.rawValue)
            o.int("latencyUs", e.latencyUs)
            o.string("level", e.level?.rawValue)
            o.int("neededBytes", e.neededBytes)
            o.string("notification", e.notification)
            o.string("object", e.object)
            o.string("reason", e.reason?.rawValue)
            o.string("to", e.to?.rawValue)
            o.int("usedBytes", e.usedBytes)
        }
    }

    /// The most frequent kinds written straight from the payload, with the keys `fields` gives
    /// them in sorted order (a test holds every kind to `JSONEncoder`'s output); false for others.
    @inline(__always)
    mutating func writeCommon(_ event: SimEvent) -> Bool {
        switch event.payload {
        case .transition(let from, let to, let cause):
            guard let app = event.app else { return false }
            head(app, event.atUs)
            if let cause { raw(",\"cause\":"); string(cause.text) }
            raw(",\"from\":\""); rawText(from.rawValue)
            raw("\",\"kind\":\"transition\",\"to\":\""); rawText(to.rawValue); raw("\"}")
        case .callback(let callback, let notification):
            guard let app = event.app else { return false }
            head(app, event.atUs)
            raw(",\"callback\":"); string(callback.rawValue)
            raw(",\"kind\":\"callback\",\"notification\":"); string(notification); raw("}")
        case .pressure(let level, let used):
            guard event.app == nil else { return false }
            raw("{\"atUs\":"); int(event.atUs)
            raw(",\"kind\":\"pressure\",\"level\":\""); rawText(level.rawValue)
            raw("\",\"usedBytes\":"); int(used); raw("}")
        case .exit(let reason, let from):
            guard let app = event.app else { return false }
            head(app, event.atUs)
            raw(",\"from\":\""); rawText(from.rawValue)
            raw("\",\"kind\":\"exit\",\"reason\":"); string(reason.rawValue); raw("}")
        case .eviction(let bytes):
            guard let app = event.app else { return false }
            head(app, event.atUs)
            raw(",\"bytes\":"); int(bytes); raw(",\"kind\":\"eviction\"}")
        default:
            return false
        }
        return true
    }

    /// `{"app":...,"atUs":...`
    @inline(__always)
    private mutating func head(_ app: String, _ atUs: Microseconds) {
        raw("{\"app\":"); string(app)
        raw(",\"atUs\":"); int(atUs)
    }

    mutating func write(_ c: SimEvent.Candidate) {
        object { o in
            o.string("app", c.app)
            o.int("band", c.band.map(Int64.init))
            o.int("footprintBytes", c.footprintBytes)
            o.int("lastForegroundUs", c.lastForegroundUs)
            o.string("state", c.state.rawValue)
            o.key("taken")
            o.buffer.bool(c.taken)
        }
    }

    mutating func write(pairs: [[Int64]]) {
        array(pairs) { b, pair in
            if pair.count == 2 { b.pair(pair[0], pair[1]) } else { b.array(pair) { b, v in b.int(v) } }
        }
    }

    mutating func write(_ t: Timeline) {
        object { o in
            o.key("appBytes")
            o.buffer.object { apps in
                for name in t.appBytes.keys.sorted() {
                    apps.key(name)
                    apps.buffer.write(pairs: t.appBytes[name]!)
                }
            }
            o.key("compressedBytes")
            o.buffer.write(pairs: t.compressedBytes)
            o.key("levels")
            o.buffer.array(t.levels) { b, change in b.write(change) }
            o.key("usedBytes")
            o.buffer.write(pairs: t.usedBytes)
        }
    }

    /// A process of a jetsam snapshot (most of report.json in a run with many kills): keys in
    /// sorted order, written straight.
    @inline(__always)
    mutating func write(_ p: JetsamEvent.Process) {
        raw("{\"name\":"); string(p.name)
        if let pid = p.pid { raw(",\"pid\":"); int(pid) }
        if let priority = p.priority { raw(",\"priority\":"); int(priority) }
        if let reason = p.reason { raw(",\"reason\":"); string(reason) }
        raw(",\"rpages\":"); int(p.rpages)
        raw(",\"states\":[")
        for (index, state) in p.states.enumerated() {
            if index > 0 { byte(UInt8(ascii: ",")) }
            string(state)
        }
        raw("]}")
    }

    /// A pressure level change of the timeline.
    public mutating func write(_ change: Timeline.LevelChange) {
        object { c in
            c.int("atUs", change.atUs)
            c.string("level", change.level.rawValue)
        }
    }

    /// A `[atUs, value]` pair of a timeline series.
    @inline(__always)
    public mutating func pair(_ atUs: Int64, _ value: Int64) {
        byte(UInt8(ascii: "["))
        int(atUs)
        byte(UInt8(ascii: ","))
        int(value)
        byte(UInt8(ascii: "]"))
    }

    public mutating func write(_ j: JetsamEvent) {
        object { o in
            o.int("atUs", j.atUs)
            o.string("exitReason", j.exitReason.rawValue)
            o.string("killed", j.killed)
            o.string("largestProcess", j.largestProcess)
            o.int("pageSize", j.pageSize)
            o.key("processes")
            o.buffer.array(j.processes) { b, p in b.write(p) }
        }
    }
}
