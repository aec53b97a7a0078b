import MemprofOutput
import Foundation
import MemprofCore
import MemprofProfile
import MemprofReport

/// A report as a Trace Event Format file (`trace.json`), which ui.perfetto.dev and
/// chrome://tracing open (spec §11).
///
/// The shape, which `memprof export --format trace` shares:
/// - `{"traceEvents": [...], "displayTimeUnit": "ms", "otherData": {...}}`; `ts` and `dur` are
///   microseconds of simulated time.
/// - pid 1 is the device (`memprof: <device>`): counters `used`, `compressed` (bytes) and `pressure`
///   (0 normal, 1 warning, 2 critical), `compressor pool` (bytes of RAM the in-RAM compressor
///   takes, only in a run that has one), and instant events for pressure changes, reclaim
///   decisions and kills of processes that are not apps (`process kill`: reason, process key,
///   kind and band, bytes).
/// - Every app is a process of its own, pid 2, 3, ... in the order of its key, named with a
///   `process_name` metadata event. Thread 1 (`lifecycle`) holds its states as complete (`X`) slices
///   and its launches, resumes, compressions, evictions, warnings and exits as instant (`i`) events
///   with their reason in `args`; thread 2 (`handlers`) holds background handler runs as `X` slices;
///   the counter `footprint` holds its resident bytes.
/// - Counter (`C`) events carry numeric `args` only. Every `X` has a `dur`. Events are written in
///   order of `ts` (metadata first), so `ts` never decreases on a track.
/// - Sampled work, when the report has a `profile`, goes on a track of its own (thread 3,
///   `samples`): one `X` slice per run of a handler's work, over that handler's simulated run,
///   named after its kernel, with the run's samples and measured wall and CPU time in `args`.
///   (The profile's stacks themselves are counts per handler, in report.html's flame graphs.)
public enum TraceJSON {
    public static let devicePid: Int64 = 1
    public static let lifecycleTid: Int64 = 1
    public static let handlersTid: Int64 = 2
    public static let samplesTid: Int64 = 3

    public static func encode(_ report: Report) throws -> Data {
        var trace = TraceStreams(report: report, spill: nil)
        try trace.add(report)
        var out = JSONWriter(capacity: trace.byteEstimate + 256)
        try trace.write(into: &out) { _ in }
        return Data(out.bytes)
    }

    /// The `pressure` counter's value of a level.
    public static func levelNumber(_ level: PressureLevel) -> Int64 {
        switch level {
        case .normal: 0
        case .warning: 1
        case .critical: 2
        }
    }
}

/// trace.json's events as streams each in time order, merged by time when the file is written:
/// the counters, each app's states, handler runs and sampled work, and the instants.
/// Written in the order of generation, equal times keep the order of the streams (metadata first,
/// then `used`, `compressed`, `pressure`, each app's footprint, states, handler runs and sampled
/// work, apps by key, then instants, then the compressor's pool).
///
/// A run streams into one as it goes (``SpillFile``: nothing grows in memory with the run);
/// ``TraceJSON/encode(_:)`` fills one from a whole report in memory.
public struct TraceStreams {
    /// The facts of `otherData`.
    public struct Header: Sendable {
        public var tool: String
        public var workload: String
        public var device: String
        public var policy: String
        public var seed: UInt64

        public init(tool: String, workload: String, device: String, policy: String, seed: UInt64) {
            self.tool = tool
            self.workload = workload
            self.device = device
            self.policy = policy
            self.seed = seed
        }
    }

    let header: Header
    /// App keys in pid order (sorted).
    public let apps: [String]
    private let pids: [String: Int64]
    private var streams: [SpillStream]
    /// How each stream keeps its records.
    private let forms: [Form]
    private let spill: SpillFile?
    private var merging = Merging()

    private static let metadataStream = 0, usedStream = 1, compressedStream = 2, pressureStream = 3
    private var instantsStream: Int { 4 + 4 * apps.count }
    private var poolStream: Int { 5 + 4 * apps.count }

    /// Streams for a run of the apps `names` (key → name), with metadata written.
    public init(header: Header, names: [String: String], spill: SpillFile?) {
        self.header = header
        apps = names.keys.sorted()
        var pids: [String: Int64] = [:]
        for (index, app) in apps.enumerated() { pids[app] = Int64(index) + 2 }
        self.pids = pids
        self.spill = spill
        let small = 8 * 1024
        streams = (0..<(6 + 4 * apps.count)).map { $0 < 4 || $0 >= 4 + 4 * pids.count ? SpillStream() : SpillStream(blockSize: small) }
        var forms = Array(repeating: Form.text, count: streams.count)
        forms[Self.usedStream] = .counter(name: "used", pid: TraceJSON.devicePid, key: "bytes")
        forms[Self.compressedStream] = .counter(name: "compressed", pid: TraceJSON.devicePid, key: "bytes")
        forms[Self.pressureStream] = .counter(name: "pressure", pid: TraceJSON.devicePid, key: "level")
        for index in apps.indices { forms[4 + index] = .counter(name: "footprint", pid: Int64(index) + 2, key: "bytes") }
        forms[5 + 4 * apps.count] = .counter(name: "compressor pool", pid: TraceJSON.devicePid, key: "bytes")
        self.forms = forms
        metadata(TraceJSON.devicePid, 0, "process_name", "name", text: "memprof: \(header.device)")
        metadata(TraceJSON.devicePid, 0, "process_sort_index", "sort_index", number: 0)
        metadata(TraceJSON.devicePid, TraceJSON.lifecycleTid, "thread_name", "name", text: "decisions")
        for app in apps {
            let pid = pids[app]!
            metadata(pid, 0, "process_name", "name", text: names[app] ?? app)
            metadata(pid, 0, "process_sort_index", "sort_index", number: pid)
            metadata(pid, TraceJSON.lifecycleTid, "thread_name", "name", text: "lifecycle")
            metadata(pid, TraceJSON.handlersTid, "thread_name", "name", text: "handlers")
        }
    }

    init(report: Report, spill: SpillFile?) {
        self.init(header: Header(tool: "\(report.tool.name) \(report.tool.version)", workload: report.run.workload,
                                 device: report.device.name, policy: report.policy.name, seed: report.run.seed),
                  names: Dictionary(uniqueKeysWithValues: report.apps.map { ($0.key, $0.value.name) }), spill: spill)
    }

    /// The pid of an app key (the device's for an unknown one).
    public func pid(_ app: String?) -> Int64 { app.flatMap { pids[$0] } ?? TraceJSON.devicePid }

    /// The index of an app key among ``apps``.
    public func index(of app: String) -> Int? { pids[app].map { Int($0) - 2 } }

    /// Bytes held so far (a size estimate for a writer in memory).
    var byteEstimate: Int { streams.reduce(0) { $0 + $1.out.count } }

    /// Fills the streams from a whole report.
    mutating func add(_ report: Report) throws {
        for pair in report.timeline.usedBytes where pair.count >= 2 { try counter(.used, at: pair[0], pair[1]) }
        for pair in report.timeline.compressedBytes where pair.count >= 2 { try counter(.compressed, at: pair[0], pair[1]) }
        for pair in report.timeline.compressorBytes ?? [] where pair.count >= 2 { try counter(.pool, at: pair[0], pair[1]) }
        for level in report.timeline.levels { try pressure(at: level.atUs, level.level) }
        for (index, app) in apps.enumerated() {
            for pair in report.timeline.appBytes[app] ?? [] where pair.count >= 2 {
                try counter(.footprint(index), at: pair[0], pair[1])
            }
        }
        let intervals = report.lifecycle(apps: apps)
        for (index, app) in apps.enumerated() {
            for interval in intervals[app] ?? [] { try state(index, interval) }
        }
        let handlers = StateIntervals.handlers(events: report.events, durationUs: report.run.durationUs)
        for (index, app) in apps.enumerated() {
            for run in handlers[app] ?? [] { try handler(index, run) }
        }
        try sampledWork(report.profile, handlers: handlers)
        for event in report.events { try instant(event) }
    }

    // MARK: Records

    /// Appends one record to stream `s`: its time, its length and its JSON text.
    @inline(__always)
    private mutating func record(_ s: Int, ts: Int64, _ body: (inout JSONRecord) -> Void) throws {
        streams[s].out.record { out in
            // The header: the time, and a length filled in once the text is written.
            out.int64Bytes(ts)
            out.uint32Bytes(0)
            let start = out.count
            body(&out)
            out.store(UInt32(out.count - start), at: start - 4)
        }
        try streams[s].flush(to: spill)
    }

    private mutating func metadata(_ pid: Int64, _ tid: Int64, _ name: StaticString, _ key: StaticString,
                                   text: String? = nil, number: Int64 = 0) {
        // The metadata stream stays in memory (a few records per app): it cannot fail.
        try? record(Self.metadataStream, ts: 0) { out in
            out.raw("{\"ph\":\"M\",\"name\":\""); out.raw(name)
            out.raw("\",\"ts\":0,\"pid\":"); out.int(pid)
            out.raw(",\"tid\":"); out.int(tid)
            out.raw(",\"args\":{\""); out.raw(key); out.raw("\":")
            if let text { out.string(text) } else { out.int(number) }
            out.raw("}}")
        }
    }

    /// A memory counter.
    public enum Counter {
        case used, compressed
        /// The in-RAM compressor's pool.
        case pool
        /// An app's footprint, by its index in ``TraceStreams/apps``.
        case footprint(Int)
    }

    public mutating func counter(_ counter: Counter, at ts: Int64, _ bytes: Int64) throws {
        switch counter {
        case .used: try value(Self.usedStream, at: ts, bytes)
        case .compressed: try value(Self.compressedStream, at: ts, bytes)
        case .pool: try value(poolStream, at: ts, bytes)
        case .footprint(let index): try value(4 + index, at: ts, bytes)
        }
    }

    public mutating func pressure(at ts: Int64, _ level: PressureLevel) throws {
        try value(Self.pressureStream, at: ts, TraceJSON.levelNumber(level))
    }

    /// Appends a counter's value to its stream `s` (a ``Form/counter(name:pid:key:)`` stream): the
    /// time and the value, 16 bytes, made into text when the file is written. Counters are most
    /// of trace.json's events: their text would be five times as much to keep.
    @inline(__always)
    private mutating func value(_ s: Int, at ts: Int64, _ value: Int64) throws {
        streams[s].out.record { out in
            out.int64Bytes(ts)
            out.int64Bytes(value)
        }
        try streams[s].flush(to: spill)
    }

    /// A state slice of the app at `index` (nothing for `notRunning`).
    public mutating func state(_ index: Int, _ interval: StateInterval) throws {
        guard interval.state != .notRunning else { return }
        try record(4 + apps.count + index, ts: interval.startUs) { out in
            out.raw("{\"ph\":\"X\",\"name\":"); out.string(interval.state.rawValue)
            out.raw(",\"ts\":"); out.int(interval.startUs)
            out.raw(",\"dur\":"); out.int(interval.lengthUs)
            out.raw(",\"pid\":"); out.int(Int64(index) + 2)
            out.raw(",\"tid\":1")
            if let cause = interval.cause {
                out.raw(",\"args\":{\"cause\":"); out.string(cause.text); out.raw("}")
            }
            out.raw("}")
        }
    }

    /// A handler run of the app at `index`.
    public mutating func handler(_ index: Int, _ run: HandlerInterval) throws {
        try record(4 + 2 * apps.count + index, ts: run.startUs) { out in
            out.raw("{\"ph\":\"X\",\"name\":"); out.string(run.handler)
            out.raw(",\"ts\":"); out.int(run.startUs)
            out.raw(",\"dur\":"); out.int(run.endUs - run.startUs)
            out.raw(",\"pid\":"); out.int(Int64(index) + 2)
            out.raw(",\"tid\":2,\"args\":{\"outcome\":"); out.string(run.outcome); out.raw("}}")
        }
    }

    /// The samples track: the profile's runs of work, in order, matched to the runs of the
    /// same app and handler in the simulation (work runs right as its handler starts, so the
    /// k-th run of work belongs to the k-th start of that handler).
    public mutating func sampledWork(_ profile: SamplingProfile?, handlers: [String: [HandlerInterval]]) throws {
        guard let profile, !profile.runs.isEmpty else { return }
        var runsByKey: [String: ArraySlice<WorkRun>] = [:]
        for run in profile.runs { runsByKey[run.app + "\u{0}" + run.handler, default: []].append(run) }
        for (index, app) in apps.enumerated() {
            let pid = Int64(index) + 2
            var named = false
            for interval in handlers[app] ?? [] {
                let key = app + "\u{0}" + interval.handler
                guard let run = runsByKey[key]?.popFirst() else { continue }
                if !named {
                    metadata(pid, TraceJSON.samplesTid, "thread_name", "name", text: "samples")
                    named = true
                }
                try record(4 + 3 * apps.count + index, ts: interval.startUs) { out in
                    out.raw("{\"ph\":\"X\",\"name\":"); out.string("work: \(run.kernel)")
                    out.raw(",\"ts\":"); out.int(interval.startUs)
                    out.raw(",\"dur\":"); out.int(interval.endUs - interval.startUs)
                    out.raw(",\"pid\":"); out.int(pid)
                    out.raw(",\"tid\":3,\"args\":{\"samples\":"); out.int(Int64(run.samples))
                    out.raw(",\"wallUs\":"); out.int(run.wallMicroseconds)
                    out.raw(",\"cpuUs\":"); out.int(run.cpuMicroseconds)
                    out.raw(",\"handler\":"); out.string(run.handler); out.raw("}}")
                }
            }
        }
    }

    /// Decisions and notable moments as instants, where their kind declares one
    /// (``SimEvent/Kind/Outputs/traceInstant``): launches, resumes, compressions, evictions, exits
    /// and warnings on their app's lifecycle thread, pressure changes, reclaims and processes'
    /// kills and launches on the device's; nothing for other events. Their names and `args` are
    /// the event's (``SimEvent/traceInstantName``, ``SimEvent/traceInstantArguments(_:)``).
    public mutating func instant(_ event: SimEvent) throws {
        try instant(event, app: event.app.flatMap(index(of:)))
    }

    /// ``instant(_:)`` for an event of the app at `index` among ``apps`` (nil: none).
    public mutating func instant(_ event: SimEvent, app index: Int?) throws {
        guard let track = event.kind.outputs.traceInstant else { return }
        let onApp = track == .app
        let pid = onApp ? index.map { Int64($0) + 2 } ?? TraceJSON.devicePid : TraceJSON.devicePid
        try record(instantsStream, ts: event.atUs) { out in
            out.raw("{\"ph\":\"i\",\"name\":"); out.string(event.traceInstantName)
            out.raw(",\"ts\":"); out.int(event.atUs)
            out.raw(",\"pid\":"); out.int(pid)
            out.raw(onApp ? ",\"tid\":1,\"s\":\"t\",\"args\":{" : ",\"tid\":1,\"s\":\"p\",\"args\":{")
            var first = true
            event.traceInstantArguments { key, value in
                if !first { out.raw(",") }
                first = false
                out.string(key); out.raw(":")
                switch value {
                case .text(let text): out.string(text)
                case .number(let number): out.int(number)
                }
            }
            out.raw("}}")
        }
    }

    // MARK: Writing

    /// Writes trace.json whole: the header, then every stream's records merged by time (equal
    /// times in stream order), then the end, handing `out` to `flush` whenever it holds a
    /// megabyte or more. The streams are read once: call it once, after every record.
    public mutating func write(into out: inout JSONWriter, flush: (inout JSONWriter) throws -> Void) throws {
        try merge(before: nil, into: &out, flush: flush)
        try finish(into: &out, flush: flush)
    }

    /// Writes trace.json as it goes: the header at the first call, then the records of
    /// every stream dated before `limit` (all of them for nil), merged as ``write(into:flush:)``
    /// merges them, handing `out` to `flush` whenever it holds a megabyte or more.
    ///
    /// The caller promises that every record added afterwards is dated `limit` or later: then the
    /// records merged call by call come out in the order of one merge at the end, byte for byte
    /// (a record held back is one a later record could precede: dated `limit` or later). A record
    /// read out of a stream no longer takes memory or scratch space.
    public mutating func merge(before limit: Int64?, into out: inout JSONWriter,
                               flush: (inout JSONWriter) throws -> Void) throws {
        if merging.cursors.isEmpty { startMerge(into: &out) }
        // The state is taken out of `self` for the loop (the streams are read meanwhile).
        var m = merging
        merging = Merging()
        defer { merging = m }
        for s in streams.indices {
            if m.queued[s] {
                // A next record left in memory may have been moved to the scratch file since,
                // with what came after it: it is then the first of the next block.
                if m.cursors[s].position >= m.cursors[s].block.count { _ = try peek(s, &m.cursors[s]) }
            } else if let ts = try peek(s, &m.cursors[s]) {
                // A stream read to its end last time, and written to since, takes its place again.
                m.heap.insert(Head(ts: ts, stream: s))
                m.queued[s] = true
            }
        }
        try m.texts.withUnsafeBufferPointer { texts in
            // The stream with the earliest record (equal times: the first stream) gives it, and
            // takes its place in the heap with its next one (which, in a run of one stream's
            // records, stays on top after a comparison or three).
            var done = false
            while !done {
                // A megabyte of records at a time, in one record of the writer.
                try out.record { out in
                    while let head = m.heap.min, limit.map({ head.ts < $0 }) ?? true {
                        let s = head.stream
                        if !m.first { out.raw(",\n") }
                        m.first = false
                        take(s, &m.cursors[s], into: &out, texts)
                        if let ts = try peek(s, &m.cursors[s]) {
                            m.heap.replaceMin(with: Head(ts: ts, stream: s))
                        } else {
                            m.heap.popMin()
                            m.queued[s] = false
                        }
                        if out.count >= 1 << 20 { return }
                    }
                    done = true
                }
                if !done { try flush(&out) }
            }
        }
        // What was read of the streams' text in memory goes: the next records are written after
        // what is left, and a block moved to the scratch file holds no record read already.
        for s in streams.indices where m.cursors[s].outPosition > 0 {
            streams[s].out.removeFirst(m.cursors[s].outPosition)
            m.cursors[s].outPosition = 0
        }
    }

    /// Ends trace.json (after the last ``merge(before:into:flush:)``, which read every record).
    public mutating func finish(into out: inout JSONWriter, flush: (inout JSONWriter) throws -> Void) throws {
        out.raw("\n]}\n")
        try flush(&out)
    }

    /// The header, and the merge's cursors.
    private mutating func startMerge(into out: inout JSONWriter) {
        out.raw("{\"displayTimeUnit\":\"ms\",\"otherData\":{")
        out.key("tool"); out.string(header.tool); out.raw(",")
        out.key("workload"); out.string(header.workload); out.raw(",")
        out.key("device"); out.string(header.device); out.raw(",")
        out.key("policy"); out.string(header.policy); out.raw(",")
        out.key("seed"); out.string(String(header.seed))
        out.raw("},\"traceEvents\":[\n")
        // The counters' texts, side by side (the cursors know their ranges).
        for form in forms {
            guard case .counter(let head, let middle) = form else {
                merging.cursors.append(Cursor(head: 0..<0, middle: 0..<0))
                continue
            }
            let at = merging.texts.count
            merging.texts += head
            merging.texts += middle
            merging.cursors.append(Cursor(head: at..<(at + head.count), middle: (at + head.count)..<merging.texts.count))
        }
        merging.queued = Array(repeating: false, count: streams.count)
    }

    /// The time of stream `s`'s next record (read from the scratch file when it is there), or nil
    /// when every record written so far was taken.
    @inline(__always)
    private mutating func peek(_ s: Int, _ cursor: inout Cursor) throws -> Int64? {
        if cursor.position < cursor.block.count {
            return cursor.block.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: cursor.position, as: Int64.self) }
        }
        // Blocks moved to the scratch file come before the text in memory (read from its start:
        // within a merge no block is added).
        if cursor.outPosition == 0, try streams[s].nextBlock(spill, into: &cursor.block) {
            // Read into the cursor's own buffer, in place. A block is never empty.
            cursor.position = 0
            return cursor.block.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 0, as: Int64.self) }
        }
        guard cursor.outPosition < streams[s].out.count else { return nil }
        return streams[s].out.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: cursor.outPosition, as: Int64.self) }
    }

    /// Appends stream `s`'s next record's text to `out` (after ``peek(_:_:)`` found one).
    @inline(__always)
    private func take(_ s: Int, _ cursor: inout Cursor, into out: inout JSONRecord, _ texts: UnsafeBufferPointer<UInt8>) {
        let head = UnsafeBufferPointer(rebasing: texts[cursor.head])
        let middle = UnsafeBufferPointer(rebasing: texts[cursor.middle])
        if cursor.position < cursor.block.count {
            let at = cursor.position
            cursor.position += cursor.block.withUnsafeBytes { Self.text(of: $0, at: at, head, middle, into: &out) }
        } else {
            let at = cursor.outPosition
            cursor.outPosition += streams[s].out.withUnsafeBytes { Self.text(of: $0, at: at, head, middle, into: &out) }
        }
    }

    /// Appends the text of the record at `at` in `raw` to `out`; returns the record's length. A
    /// counter's record (`head` not empty) is its time and value, made text between `head` and
    /// `middle`; any other is its time, length and text.
    @inline(__always)
    private static func text(of raw: UnsafeRawBufferPointer, at: Int, _ head: UnsafeBufferPointer<UInt8>,
                             _ middle: UnsafeBufferPointer<UInt8>, into out: inout JSONRecord) -> Int {
        if head.isEmpty {
            let length = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at + 8, as: UInt32.self)))
            out.raw(UnsafeBufferPointer(start: raw.baseAddress!.assumingMemoryBound(to: UInt8.self) + at + 12, count: length))
            return 12 + length
        }
        out.raw(head)
        out.int(Int64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: Int64.self)))
        out.raw(middle)
        out.int(Int64(littleEndian: raw.loadUnaligned(fromByteOffset: at + 8, as: Int64.self)))
        out.raw("}}")
        return 16
    }

    /// The merge, kept from one ``merge(before:into:flush:)`` to the next.
    private struct Merging {
        /// Per stream, where its next record is.
        var cursors: [Cursor] = []
        /// The next record of every stream that has one.
        var heap = MergeHeap()
        /// Per stream, whether it is in the heap.
        var queued: [Bool] = []
        /// The counters' texts around their time and value.
        var texts: [UInt8] = []
        /// Whether no record was written yet (the next needs no comma).
        var first = true
    }

    /// How a stream keeps its records.
    private enum Form {
        /// A record is its time (8 bytes), its length (4 bytes) and its JSON text.
        case text
        /// A record is a counter's time and value (8 bytes each), written as
        /// `{"ph":"C","name":NAME,"ts":TIME,"pid":PID,"tid":0,"args":{KEY:VALUE}}`.
        case counter(head: [UInt8], middle: [UInt8])

        static func counter(name: String, pid: Int64, key: String) -> Form {
            .counter(head: Array("{\"ph\":\"C\",\"name\":\"\(name)\",\"ts\":".utf8),
                     middle: Array(",\"pid\":\(pid),\"tid\":0,\"args\":{\"\(key)\":".utf8))
        }
    }

    private struct Head: Comparable {
        var ts: Int64
        var stream: Int

        @inline(__always)
        static func < (a: Head, b: Head) -> Bool { a.ts != b.ts ? a.ts < b.ts : a.stream < b.stream }
    }

    /// The streams' next records by time, for the merge: a binary min-heap, whose top replaced by
    /// the same stream's next record sinks only as far as it must (in a run of one stream's
    /// records, two comparisons and no move: a min-max heap compares six at every step).
    private struct MergeHeap {
        private var items: [Head] = []

        var min: Head? { items.first }

        mutating func insert(_ head: Head) {
            items.append(head)
            var i = items.count - 1
            while i > 0, items[i] < items[(i - 1) / 2] {
                items.swapAt(i, (i - 1) / 2)
                i = (i - 1) / 2
            }
        }

        @inline(__always)
        mutating func replaceMin(with head: Head) {
            items.withUnsafeMutableBufferPointer { Self.sink(head, in: $0) }
        }

        mutating func popMin() {
            let last = items.removeLast()
            if !items.isEmpty { replaceMin(with: last) }
        }

        /// Puts `head` at the top of `items` and moves it down to its place.
        @inline(__always)
        private static func sink(_ head: Head, in items: UnsafeMutableBufferPointer<Head>) {
            let count = items.count
            var i = 0
            while true {
                let left = 2 &* i &+ 1
                guard left < count else { break }
                var child = left
                if left &+ 1 < count, items[left &+ 1] < items[left] { child = left &+ 1 }
                guard items[child] < head else { break }
                items[i] = items[child]
                i = child
            }
            items[i] = head
        }
    }

    /// Where a stream's next record is: in a block read back from the scratch file, or in the
    /// stream's text still in memory.
    private struct Cursor {
        /// A counter stream's text around its time and value, in ``Merging/texts`` (empty for a
        /// stream of text).
        let head: Range<Int>
        let middle: Range<Int>
        var block: [UInt8] = []
        var position = 0
        /// How far the stream's text in memory was read (0 between merges).
        var outPosition = 0

        init(head: Range<Int>, middle: Range<Int>) {
            self.head = head
            self.middle = middle
        }
    }
}
