import MemprofOutput
import MemprofCore

/// Hand-written encoders for the report's large sections: events, the timeline and jetsam
/// snapshots. Keys are written in sorted order, as `JSONEncoder` with `.sortedKeys` would.
extension JSONWriter {
    /// An event, after a comma when `comma` (a member of a list but the first).
    public mutating func write(_ event: SimEvent, comma: Bool = false) {
        var written = false
        record { out in
            if comma { out.byte(UInt8(ascii: ",")) }
            written = out.writeCommon(event)
        }
        if written { return }
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

    mutating func write(_ c: SimEvent.Candidate) {
        record { $0.write(c) }
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
            if let pool = t.compressorBytes {
                o.key("compressorBytes")
                o.buffer.write(pairs: pool)
            }
            o.key("levels")
            o.buffer.array(t.levels) { b, change in b.write(change) }
            o.key("usedBytes")
            o.buffer.write(pairs: t.usedBytes)
        }
    }

    /// A pressure level change of the timeline, after a comma when `comma`.
    public mutating func write(_ change: Timeline.LevelChange, comma: Bool = false) {
        record { out in
            if comma { out.byte(UInt8(ascii: ",")) }
            out.write(change)
        }
    }

    /// A `[atUs, value]` pair of a timeline series, after a comma when `comma`.
    @inline(__always)
    public mutating func pair(_ atUs: Int64, _ value: Int64, comma: Bool = false) {
        record { out in
            if comma { out.byte(UInt8(ascii: ",")) }
            out.pair(atUs, value)
        }
    }

    /// A jetsam snapshot, after a comma when `comma`.
    public mutating func write(_ j: JetsamEvent, comma: Bool = false) {
        record { out in
            if comma { out.byte(UInt8(ascii: ",")) }
            out.write(j)
        }
    }

    /// A jetsam snapshot as the engine took it (apps named by `appIDs`), after a comma when `comma`.
    public mutating func write(_ j: JetsamSnapshot, appIDs: [String], comma: Bool = false) {
        record { out in
            if comma { out.byte(UInt8(ascii: ",")) }
            out.write(j, appIDs: appIDs)
        }
    }
}

/// The records of report.json's large sections written straight, each in one ``JSONRecord``,
/// with the keys in sorted order (as `JSONEncoder` with `.sortedKeys` writes them; tests hold
/// every kind of event and both shapes of the other records to `JSONEncoder`'s output).
extension JSONRecord {
    /// The kinds of events nearly every run is made of, written straight from the payload with
    /// the keys ``SimEvent/fields`` gives them; false (nothing written) for the others.
    @inline(__always)
    mutating func writeCommon(_ event: SimEvent) -> Bool {
        switch event.payload {
        case .transition(let from, let to, let cause):
            head(event)
            if let cause { raw(",\"cause\":"); string(cause.text) }
            raw(",\"from\":"); string(from.rawValue)
            raw(",\"kind\":\"transition\",\"to\":"); string(to.rawValue)
        case .callback(let callback, let notification):
            head(event)
            raw(",\"callback\":"); string(callback.rawValue)
            raw(",\"kind\":\"callback\",\"notification\":"); string(notification)
        case .pressure(let level, let used):
            head(event)
            raw(",\"kind\":\"pressure\",\"level\":"); string(level.rawValue)
            raw(",\"usedBytes\":"); int(used)
        case .exit(let reason, let from):
            head(event)
            raw(",\"from\":"); string(from.rawValue)
            raw(",\"kind\":\"exit\",\"reason\":"); string(reason.rawValue)
        case .eviction(let bytes):
            head(event)
            raw(",\"bytes\":"); int(bytes); raw(",\"kind\":\"eviction\"")
        case .decompression(let bytes):
            head(event)
            raw(",\"bytes\":"); int(bytes); raw(",\"kind\":\"decompression\"")
        case .launch(let kind, let bytes, let wake):
            head(event)
            raw(",\"bytes\":"); int(bytes)
            raw(",\"detail\":"); string(kind.rawValue)
            if let wake { raw(",\"handler\":"); string(wake.rawValue) }
            raw(",\"kind\":\"launch\"")
        case .resume(let kind, let latency):
            head(event)
            raw(",\"detail\":"); string(kind.rawValue)
            raw(",\"kind\":\"resume\",\"latencyUs\":"); int(latency)
        case .compression(let bytes, let compressedBytes, let freezer):
            head(event)
            raw(",\"bytes\":"); int(bytes)
            raw(",\"compressedBytes\":"); int(compressedBytes)
            if let freezer { raw(",\"detail\":"); string(freezer.detail) }
            raw(",\"kind\":\"compression\"")
            if let freezer { raw(",\"usedBytes\":"); int(freezer.usedBytes) }
        case .memoryWarning(let cause, let freed):
            head(event)
            raw(",\"detail\":"); string(cause.rawValue)
            raw(",\"freedBytes\":"); int(freed)
            raw(",\"kind\":\"memoryWarning\"")
        case .reclaim(let r):
            head(event)
            raw(",\"candidates\":"); list(r.candidates) { $0.write($1) }
            raw(",\"freedBytes\":"); int(r.freedBytes)
            raw(",\"kind\":\"reclaim\",\"neededBytes\":"); int(r.neededBytes)
            raw(",\"usedBytes\":"); int(r.usedBytes)
        case .handlerStart(let activity, let bytes, let inForeground):
            head(event)
            if let bytes { raw(",\"bytes\":"); int(bytes) }
            // SimEvent's `detail` of a handler run in the foreground (a test holds them equal).
            if inForeground { raw(",\"detail\":\"in the foreground\"") }
            raw(",\"handler\":"); string(activity.rawValue)
            raw(",\"kind\":\"handlerStart\"")
        case .handlerEnd(let activity, let outcome):
            head(event)
            raw(",\"detail\":"); string(outcome.detail)
            raw(",\"handler\":"); string(activity.rawValue)
            raw(",\"kind\":\"handlerEnd\"")
        default:
            return false
        }
        byte(UInt8(ascii: "}"))
        return true
    }

    /// `{"app":...,"atUs":...`, without `app` for an event of the device.
    @inline(__always)
    private mutating func head(_ event: SimEvent) {
        if let app = event.app {
            raw("{\"app\":"); string(app)
            raw(",\"atUs\":")
        } else {
            raw("{\"atUs\":")
        }
        int(event.atUs)
    }

    /// A candidate of a reclaim.
    @inline(__always)
    mutating func write(_ c: SimEvent.Candidate) {
        raw("{\"app\":"); string(c.app)
        if let band = c.band { raw(",\"band\":"); int(band) }
        raw(",\"footprintBytes\":"); int(c.footprintBytes)
        raw(",\"lastForegroundUs\":"); int(c.lastForegroundUs)
        raw(",\"state\":"); string(c.state.rawValue)
        c.taken ? raw(",\"taken\":true}") : raw(",\"taken\":false}")
    }

    /// A process of a jetsam snapshot (most of report.json in a run with many kills).
    @inline(__always)
    mutating func write(_ p: JetsamEvent.Process) {
        process(name: p.name, pid: p.pid, priority: p.priority, reason: p.reason, rpages: p.rpages, states: p.states)
    }

    @inline(__always)
    private mutating func process(name: String, pid: Int?, priority: Int?, reason: String?, rpages: Int64,
                                  states: [String]) {
        raw("{\"name\":"); string(name)
        if let pid { raw(",\"pid\":"); int(pid) }
        if let priority { raw(",\"priority\":"); int(priority) }
        if let reason { raw(",\"reason\":"); string(reason) }
        raw(",\"rpages\":"); int(rpages)
        raw(",\"states\":"); list(states) { $0.string($1) }
        byte(UInt8(ascii: "}"))
    }

    /// A jetsam snapshot.
    mutating func write(_ j: JetsamEvent) {
        snapshot(atUs: j.atUs, compressor: j.compressor, exitReason: j.exitReason, killed: j.killed,
                 largestProcess: j.largestProcess, pageSize: j.pageSize, unlisted: j.unlisted) { out in
            out.list(j.processes) { $0.write($1) }
        }
    }

    /// A jetsam snapshot as the engine took it, its apps named by `appIDs` (the workload's
    /// order): the same text as the `JetsamEvent` it stands for (``JetsamSnapshot/event(appIDs:)``).
    mutating func write(_ j: JetsamSnapshot, appIDs: [String]) {
        snapshot(atUs: j.atUs, compressor: j.compressor, exitReason: j.exitReason, killed: appIDs[j.killed],
                 largestProcess: appIDs[j.largestProcess], pageSize: j.pageSize, unlisted: j.unlisted) { out in
            out.list(j.processes) { out, p in
                out.process(name: appIDs[p.app], pid: p.pid, priority: p.priority, reason: j.reason(of: p),
                            rpages: p.rpages, states: p.states)
            }
        }
    }

    @inline(__always)
    private mutating func snapshot(atUs: Microseconds, compressor: JetsamEvent.Compressor?, exitReason: ExitReason,
                                   killed: String, largestProcess: String, pageSize: Bytes,
                                   unlisted: JetsamEvent.Unlisted?, processes: (inout JSONRecord) -> Void) {
        raw("{\"atUs\":"); int(atUs)
        if let c = compressor {
            raw(",\"compressor\":{\"compressions\":"); int(c.compressions)
            raw(",\"decompressions\":"); int(c.decompressions)
            raw(",\"pages\":"); int(c.pages)
            raw(",\"uncompressedPages\":"); int(c.uncompressedPages)
            byte(UInt8(ascii: "}"))
        }
        raw(",\"exitReason\":"); string(exitReason.rawValue)
        raw(",\"killed\":"); string(killed)
        raw(",\"largestProcess\":"); string(largestProcess)
        raw(",\"pageSize\":"); int(pageSize)
        raw(",\"processes\":"); processes(&self)
        if let u = unlisted {
            raw(",\"unlisted\":{\"processes\":"); int(Int64(u.processes))
            raw(",\"rpages\":"); int(u.rpages)
            byte(UInt8(ascii: "}"))
        }
        byte(UInt8(ascii: "}"))
    }

    /// A `[atUs, value]` pair of a timeline series.
    @inline(__always)
    mutating func pair(_ atUs: Int64, _ value: Int64) {
        byte(UInt8(ascii: "["))
        int(atUs)
        byte(UInt8(ascii: ","))
        int(value)
        byte(UInt8(ascii: "]"))
    }

    /// A pressure level change of the timeline.
    mutating func write(_ change: Timeline.LevelChange) {
        raw("{\"atUs\":"); int(change.atUs)
        raw(",\"level\":"); string(change.level.rawValue)
        byte(UInt8(ascii: "}"))
    }
}
