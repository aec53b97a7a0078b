import Foundation
import MemprofCore
import MemprofInput
import MemprofOutput
import MemprofReport

/// What a reader of a report keeps of it. Everything is read and checked either way; what is not
/// kept is not held in memory, so a reader that needs only part of a large report reads it in
/// memory that does not grow with its events.
public struct ReportReadOptions: Sendable, Equatable {
    /// The kinds of events to keep (nil: every event).
    public var eventKinds: Set<SimEvent.Kind>?
    /// Whether reclaim events keep the candidates the policy considered.
    public var candidates = true
    /// With `candidates`, keep only the candidates taken (evicted or killed), not every one considered.
    public var takenCandidatesOnly = false
    /// Whether jetsam snapshots keep their process lists.
    public var jetsamProcesses = true
    /// Reduce each memory series of the timeline, while reading, to about `2 × seriesBuckets`
    /// points at most, keeping the smallest and largest point of each slice of time, so no peak
    /// is lost (nil: keep every point).
    public var seriesBuckets: Int?

    public init(eventKinds: Set<SimEvent.Kind>? = nil, candidates: Bool = true, jetsamProcesses: Bool = true,
                seriesBuckets: Int? = nil) {
        self.eventKinds = eventKinds
        self.candidates = candidates
        self.jetsamProcesses = jetsamProcesses
        self.seriesBuckets = seriesBuckets
    }

    /// The whole report.
    public static let everything = ReportReadOptions()
}

/// Why a report could not be read: the problem, and the byte offset where it is when it has one.
public struct ReportReadFailure: Error, Equatable {
    public var offset: Int?
    public var error: ReportReadError
}

/// Receives the events a reader keeps, one at a time in report order, instead of a list in the
/// report: a command that needs only figures drawn from the events (counts, marks, the first few
/// examples) gathers them here in memory that does not grow with the report.
public protocol ReportEventSink: AnyObject {
    func add(_ event: SimEvent)
    /// Where the report's `events` list is (its bytes, from '[' to ']'), once it has been read.
    func eventsRead(at range: Range<Int>)
}

extension ReportEventSink {
    public func eventsRead(at range: Range<Int>) {}
}

/// The reader of `report.json`: one pass over the bytes with `JSONScanner`, checking all of it
/// and keeping what `ReportReadOptions` asks for. Events, the timeline and jetsam snapshots (the
/// bulk of a report) are read field by field from the bytes; the small sections (summary, apps,
/// device, policy...) are decoded by `JSONDecoder` from their own bytes.
public enum ReportReader {
    /// Reads a report from `bytes`; `release(range)` is called now and then with bytes the
    /// reader will not look at again, so a caller that mapped the file can drop those pages
    /// (from two threads at once when a large report is read by two: ``SplitRead``).
    /// With a `sink`, the events kept are handed to it and the report's `events` stays empty.
    /// Reports of `splitAbove` bytes or more are read by two threads (nil: by one).
    public static func read(_ bytes: UnsafeRawBufferPointer, options: ReportReadOptions = .everything,
                            release: (@Sendable (Range<Int>) -> Void)? = nil, sink: ReportEventSink? = nil,
                            splitAbove: Int? = SplitRead.minimumBytes) throws(ReportReadFailure) -> Report {
        let split = splitAbove.map { bytes.count >= $0 } ?? false
        return try read(bytes, options: options, release: release, sink: sink, splitShare: split ? SplitRead.share : nil)
    }

    /// Reads a report, by two threads when `splitShare` is given (``SplitRead``: the share of the
    /// bytes from the events list on that the first thread reads), whatever its size: for tests
    /// and the fuzz target, which compare the two ways of reading.
    public static func read(_ bytes: UnsafeRawBufferPointer, options: ReportReadOptions, release: (@Sendable (Range<Int>) -> Void)?,
                     sink: ReportEventSink?, splitShare: Double?) throws(ReportReadFailure) -> Report {
        var reader = Reader(JSONScanner(bytes), options: options, release: release)
        reader.sink = sink
        let second = splitShare.flatMap { SplitRead(bytes, share: $0, options: options, release: release, sink: sink) }
        defer { second?.join() }
        return try located { try reader.report(split: second) }
    }

    /// Reads again the `events` list at `range` of a report read before (`ReportEventSink.eventsRead`),
    /// handing the events of `kinds` to `sink`.
    public static func readEvents(_ bytes: UnsafeRawBufferPointer, at range: Range<Int>, kinds: Set<SimEvent.Kind>,
                                  sink: ReportEventSink) throws(ReportReadFailure) {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count else {
            throw ReportReadFailure(offset: nil, error: .notAReport("the report changed while it was read"))
        }
        var options = ReportReadOptions(eventKinds: kinds)
        options.takenCandidatesOnly = true
        var reader = Reader(JSONScanner(UnsafeRawBufferPointer(rebasing: bytes[..<range.upperBound])), options: options, release: nil)
        reader.sink = sink
        reader.s.index = range.lowerBound
        try located { _ = try reader.events() }
    }

    static func located<T>(_ read: () throws -> T) throws(ReportReadFailure) -> T {
        do {
            return try read()
        } catch let error as JSONScanError {
            throw ReportReadFailure(offset: error.offset, error: .notAReport(error.message))
        } catch let problem as SchemaProblem {
            throw ReportReadFailure(offset: problem.offset, error: .notAReport("does not match \(Report.schemaName): \(problem.message)"))
        } catch let failure as ReportReadFailure {
            throw failure
        } catch {
            throw ReportReadFailure(offset: nil, error: .notAReport("\(error)"))
        }
    }
}

/// A value of the wrong shape for the schema, where it is.
struct SchemaProblem: Error {
    var offset: Int
    var message: String
}

/// The keys of one kind of object, in sorted order (as memprof writes them).
typealias KeyTable = JSONNames

/// The raw values of a string enum, found by bytes.
struct Choices<E: RawRepresentable & CaseIterable & Sendable>: Sendable where E.RawValue == String {
    let cases = Array(E.allCases)
    let names = JSONNames(E.allCases.map(\.rawValue))
    let words: String

    init(_ what: String) { words = what }
}

struct Reader {
    var s: JSONScanner
    let options: ReportReadOptions
    let release: (@Sendable (Range<Int>) -> Void)?
    var unknown = [JSONScanner.KeySet](repeating: JSONScanner.KeySet(), count: 4)
    var released = 0
    var sink: ReportEventSink?
    /// The events kept in a list at most (a split's second reader, which holds the events it
    /// reads for a sink until the first has read those before): past it, `sinkWhenFree` waits
    /// for the sink (nil: give up).
    var keptLimit = Int.max
    var sinkWhenFree: (() -> ReportEventSink?)?
    /// The key and word tables, reached through one reference (not a lazy global per use).
    let tables = Tables.shared

    init(_ s: JSONScanner, options: ReportReadOptions, release: (@Sendable (Range<Int>) -> Void)?) {
        self.s = s
        self.options = options
        self.release = release
    }

    static let topKeys = KeyTable(["events", "jetsamEvents", "schema", "timeline"])

    mutating func report(split: SplitRead? = nil) throws -> Report {
        guard s.peek() != nil else { throw s.fail("the file is empty", at: 0) }
        guard s.peek() == 0x7B else { throw s.fail("not a JSON object", at: s.index) }
        try s.beginObject()
        var top = TopMembers()
        var first = true
        // With a split taken, the other reader has read the rest, to the end.
        if try !members(&top, first: &first, split: split) { try s.expectEnd("the end of the report") }
        guard let schema = top.schema else { throw ReportReadFailure(offset: nil, error: .notAReport("no 'schema' key")) }
        guard schema == Report.schemaName else { throw ReportReadFailure(offset: nil, error: .unknownSchema(schema)) }
        if let problem = top.problem { throw problem }
        return try decode(top)
    }

    /// What the members of the report's top object hold, as they are read.
    struct TopMembers {
        var seen = JSONScanner.KeySet()
        /// Every key, in order.
        var keys: [JSONScanner.Key] = []
        var small: [(key: JSONScanner.Key, value: Range<Int>)] = []
        var events: [SimEvent]?
        var jetsam: [JetsamEvent]?
        var timeline: Timeline?
        var schema: String?
        /// A value of the wrong shape in a large section waits until the schema is known: a
        /// report of another schema is named as such, not by its first unexpected field.
        var problem: SchemaProblem?
    }

    /// Reads the top object's members up to its '}'. With a `split` whose reader has read the rest
    /// of the report, stops where it starts (in the events) and takes what it read: returns true.
    mutating func members(_ top: inout TopMembers, first: inout Bool, split: SplitRead? = nil) throws -> Bool {
        while let key = try s.nextMember(first: &first) {
            try s.insert(key, into: &top.seen)
            top.keys.append(key)
            let start = s.index
            func section<T>(_ read: (inout Reader) throws -> T) throws -> T? {
                do { return try read(&self) } catch let p as SchemaProblem {
                    if top.problem == nil { top.problem = p }
                    s.index = start
                    try s.skipValue()
                    return nil
                }
            }
            switch tables.topKeys.index(of: key, in: s) {
            case 0:
                var events = try section { try $0.events(split: split) } ?? []
                if let split, let rest = split.taken {
                    if let sink { for event in rest.events { sink.add(event) } } else { events += rest.events }
                    top.events = events
                    s.index = rest.eventsEnd
                    if top.problem == nil { sink?.eventsRead(at: start..<s.index) }
                    try take(rest, into: &top)
                    return true
                }
                top.events = events
                if top.problem == nil { sink?.eventsRead(at: start..<s.index) }
            case 1: top.jetsam = try section { try $0.jetsamEvents() } ?? []
            case 3: top.timeline = try section { try $0.timeline() } ?? Timeline()
            case 2:
                if s.peek() == 0x22 { top.schema = try s.readString() } else { try s.skipValue() }
                top.small.append((key, start..<s.index))
            default:
                try s.skipValue()
                top.small.append((key, start..<s.index))
            }
        }
        return false
    }

    /// The report from its members: the small sections (with the large ones as empty stand-ins)
    /// through the plain decoder, or, for anything it is not sure to read as JSONDecoder would,
    /// through JSONDecoder.
    func decode(_ top: TopMembers) throws -> Report {
        var members = top.small.map { member in
            PlainJSONDecoder.Member(key: UnsafeBufferPointer(start: s.base + member.key.start, count: member.key.end - member.key.start),
                                    value: UnsafeBufferPointer(start: s.base + member.value.lowerBound, count: member.value.count))
        }
        for (name, present) in [(StandIn.events, top.events != nil), (StandIn.jetsamEvents, top.jetsam != nil),
                                (StandIn.timeline, top.timeline != nil)] where present {
            members.append(PlainJSONDecoder.Member(key: name.key, value: name.value))
        }
        var report: Report
        if let plain = PlainJSONDecoder.decode(Report.self, object: members) {
            report = plain
        } else {
            do {
                report = try JSONDecoder().decode(Report.self, from: Self.object(members))
            } catch let error as DecodingError {
                if case .dataCorrupted(let context) = error, context.codingPath.isEmpty,
                   let bad = badNumber(members, error: error) {
                    throw bad
                }
                throw ReportReadFailure(offset: nil, error: .notAReport("does not match \(Report.schemaName): \(describe(error))"))
            }
        }
        report.events = top.events ?? []
        report.jetsamEvents = top.jetsam ?? []
        report.timeline = top.timeline ?? Timeline()
        return report
    }

    /// The members as one JSON object, with number `zeroing` written as 0 when given.
    static func object(_ members: [PlainJSONDecoder.Member], zeroing number: NumberTokens? = nil) -> Data {
        var json = Data("{".utf8)
        for (index, member) in members.enumerated() {
            if index > 0 { json.append(0x2C) }
            json.append(0x22)
            json.append(member.key.baseAddress!, count: member.key.count)
            json.append(contentsOf: [0x22, 0x3A])
            if let n = number, member.value.baseAddress == n.buffer.baseAddress {
                json.append(member.value.baseAddress!, count: n.start)
                json.append(0x30)
                json.append(member.value.baseAddress! + n.end, count: member.value.count - n.end)
            } else {
                json.append(member.value.baseAddress!, count: member.value.count)
            }
        }
        json.append(0x7D)
        return json
    }

    /// The number that made `JSONDecoder` refuse the small sections without a place (its
    /// "not valid JSON" for `1e400` or a fraction where a count is), located with its key path:
    /// a number no `Double` holds at once; else the first fraction (of the first 64) that, read
    /// as 0, changes the error. Nil when none does.
    func badNumber(_ members: [PlainJSONDecoder.Member], error: DecodingError) -> SchemaProblem? {
        let numbers = members.flatMap { member in
            NumberTokens.find(in: member.value, key: String(decoding: member.key, as: UTF8.self))
        }
        for n in numbers where !n.fitsDouble {
            return problem("\(n.path): \(n.text) is out of range (a number is at most 2^53)", at: n.offset(from: s.base))
        }
        let original = describe(error)
        for n in numbers.filter(\.isFraction).prefix(64) {
            do {
                _ = try JSONDecoder().decode(Report.self, from: Self.object(members, zeroing: n))
            } catch let again as DecodingError where describe(again) == original {
                continue
            } catch {}
            return problem("\(n.path): \(n.text) is not a whole number", at: n.offset(from: s.base))
        }
        return nil
    }

    // MARK: helpers

    func problem(_ message: String, at offset: Int) -> SchemaProblem {
        SchemaProblem(offset: offset, message: message)
    }

    /// The next member of the object being read that is in `table` (its index), skipping (and
    /// checking) others; nil once the object ends. A key given twice throws.
    mutating func nextKnown(_ table: KeyTable, first: inout Bool, seen: inout UInt64, order: inout KeyOrder,
                            level: Int) throws -> Int? {
        if first { order.state = 0 }
        // Most often the next key is the one that followed the last key last time (or else the
        // table's next), written plainly: one comparison.
        let next = order.guess(keys: table.count)
        if seen & (1 << UInt64(next)) == 0, s.nextMember(named: next, in: table, first: &first) {
            seen |= 1 << UInt64(next)
            order.found(next)
            return next
        }
        // Else most often another of the table's keys, written plainly: found by its bytes.
        if let (k, quote) = s.nextMember(in: table, first: &first) {
            order.found(k)
            guard seen & (1 << UInt64(k)) == 0 else { throw s.fail("duplicate key '\(table.names[k])'", at: quote) }
            seen |= 1 << UInt64(k)
            return k
        }
        while let key = try s.nextMember(first: &first) {
            if let k = table.index(of: key, in: s) {
                order.found(k)
                guard seen & (1 << UInt64(k)) == 0 else { throw s.fail("duplicate key '\(s.string(key))'", at: key.quote) }
                seen |= 1 << UInt64(k)
                return k
            }
            try s.insert(key, into: &unknown[level])
            try s.skipValue()
        }
        return nil
    }

    /// Starts an object at `level` of nesting of the typed sections.
    mutating func beginObject(level: Int, _ path: @autoclosure () -> String) throws {
        guard s.peek() == 0x7B else { throw problem("\(path()): expected an object, found \(s.what(s.index))", at: s.index) }
        try s.beginObject()
        unknown[level].removeAll()
    }

    mutating func beginArray(_ path: @autoclosure () -> String) throws {
        guard s.peek() == 0x5B else { throw problem("\(path()): expected a list, found \(s.what(s.index))", at: s.index) }
        try s.beginArray()
    }

    func requireAll(_ seen: UInt64, _ required: UInt64, _ table: KeyTable, _ path: @autoclosure () -> String, at offset: Int) throws {
        guard seen & required != required else { return }
        let missing = (0..<table.count).first { required & (1 << UInt64($0)) != 0 && seen & (1 << UInt64($0)) == 0 }!
        throw problem("\(path()): missing key '\(table.names[missing])'", at: offset)
    }

    mutating func int(_ path: @autoclosure () -> String) throws -> Int64 {
        guard let first = s.peek(), first == 0x2D || (first >= 0x30 && first <= 0x39) else {
            throw problem("\(path()): expected a whole number, found \(s.what(s.index))", at: s.index)
        }
        return try s.readInt64()
    }

    mutating func optionalInt(_ path: @autoclosure () -> String) throws -> Int64? {
        s.readNull() ? nil : try int(path())
    }

    /// The offset of a string's opening quote (nil for null), the string checked.
    mutating func optionalStringAt(_ path: @autoclosure () -> String) throws -> Int? {
        if s.readNull() { return nil }
        guard s.peek() == 0x22 else { throw problem("\(path()): expected a string, found \(s.what(s.index))", at: s.index) }
        let at = s.index
        _ = try s.scanString()
        return at
    }

    mutating func string(_ path: @autoclosure () -> String) throws -> String {
        guard s.peek() == 0x22 else { throw problem("\(path()): expected a string, found \(s.what(s.index))", at: s.index) }
        return try s.readString()
    }

    /// A string, made a `String` only when jetsam process lists are kept.
    mutating func keepString(_ path: @autoclosure () -> String) throws -> String {
        if options.jetsamProcesses { return try string(path()) }
        guard s.peek() == 0x22 else { throw problem("\(path()): expected a string, found \(s.what(s.index))", at: s.index) }
        _ = try s.scanString()
        return ""
    }

    mutating func choice<E>(_ choices: Choices<E>, _ path: @autoclosure () -> String) throws -> E {
        choices.cases[try choiceIndex(choices, path())]
    }

    /// The index of the word at the scanner among `choices`.
    mutating func choiceIndex<E>(_ choices: Choices<E>, _ path: @autoclosure () -> String) throws -> Int {
        let at = s.index
        guard s.peek() == 0x22 else { throw problem("\(path()): expected a string, found \(s.what(s.index))", at: s.index) }
        guard let k = try s.readChoice(choices.names) else {
            throw problem("\(path()): '\(s.string(at: at))' is not \(choices.words) (\(choices.cases.map(\.rawValue).joined(separator: ", ")))", at: at)
        }
        return k
    }

    mutating func optionalChoice<E>(_ choices: Choices<E>, _ path: @autoclosure () -> String) throws -> E? {
        s.readNull() ? nil : try choice(choices, path())
    }

    // MARK: events

    static let eventKeys = KeyTable(["action", "app", "atUs", "bytes", "callback", "candidates", "cause", "compressedBytes",
                                     "detail", "freedBytes", "from", "handler", "kind", "latencyUs", "level", "neededBytes",
                                     "notification", "object", "reason", "to", "usedBytes"])
    static let eventRequired: UInt64 = 1 << 2 | 1 << 12
    static let kinds = Choices<SimEvent.Kind>("an event kind")
    static let states = Choices<AppState>("an app state")
    static let callbacks = Choices<LifecycleCallback>("a lifecycle callback")
    static let reasons = Choices<ExitReason>("an exit reason")
    static let levels = Choices<PressureLevel>("a pressure level")

    /// The events list. With a `split`, stops before its element at `split.offset` when the other
    /// reader has read the rest of the report from there (`split.taken`). `continuing`: the
    /// scanner is at an element inside the list (the other reader's start), not at its '['.
    mutating func events(split: SplitRead? = nil, continuing: Bool = false) throws -> [SimEvent] {
        // Local copies: one retain per list, not one per use.
        let eventKeys = tables.eventKeys, kinds = tables.kinds, states = tables.states, callbacks = tables.callbacks, reasons = tables.reasons, levels = tables.levels
        if !continuing { try beginArray("events") }
        var out: [SimEvent] = []
        var first = true
        var n = 0
        var order = KeyOrder(states: 1 + eventKeys.count + kinds.cases.count)
        var candidateOrder = KeyOrder(states: 1 + tables.candidateKeys.count)
        defer { order.free(); candidateOrder.free() }
        let keep = tables.mask(options.eventKinds)
        while try s.nextElement(first: &first) {
            if let split, s.spaceEnd(from: s.index) == split.offset, split.take() { break }
            let start = s.index
            try beginObject(level: 0, "events[\(n)]")
            var seen: UInt64 = 0
            var object = true
            var atUs: Int64 = 0
            var kind = SimEvent.Kind.transition
            var kindIndex = 0
            var action: Int?, app: Int?, cause: Int?, detail: Int?, handler: Int?, notification: Int?, objectName: Int?
            var bytes: Int64?, compressed: Int64?, freed: Int64?, latency: Int64?, needed: Int64?, used: Int64?
            var from: AppState?, to: AppState?, callback: LifecycleCallback?, reason: ExitReason?, level: PressureLevel?
            // The candidates as kept, and the first band out of range among them (refused only
            // when the event is kept).
            var kept: (list: [SimEvent.Candidate], band: SchemaProblem?)?
            while let k = try nextKnown(eventKeys, first: &object, seen: &seen, order: &order, level: 0) {
                func path() -> String { "events[\(n)].\(Reader.eventKeys.names[k])" }
                switch k {
                case 0: action = try optionalStringAt(path())
                case 1: app = try optionalStringAt(path())
                case 8: detail = try optionalStringAt(path())
                case 11: handler = try optionalStringAt(path())
                case 16: notification = try optionalStringAt(path())
                case 17: objectName = try optionalStringAt(path())
                case 6: cause = try optionalStringAt(path())
                case 2: atUs = try int(path())
                case 3: bytes = try optionalInt(path())
                case 7: compressed = try optionalInt(path())
                case 9: freed = try optionalInt(path())
                case 13: latency = try optionalInt(path())
                case 15: needed = try optionalInt(path())
                case 20: used = try optionalInt(path())
                case 4: callback = try optionalChoice(callbacks, path())
                case 10: from = try optionalChoice(states, path())
                case 19: to = try optionalChoice(states, path())
                case 12:
                    kindIndex = try choiceIndex(kinds, path())
                    kind = kinds.cases[kindIndex]
                    // The keys after the kind depend on it: learned per kind.
                    order.state = 1 + eventKeys.count + kindIndex
                case 14: level = try optionalChoice(levels, path())
                case 18: reason = try optionalChoice(reasons, path())
                case 5:
                    if !s.readNull() { kept = try candidates(keep: options.candidates, event: n, order: &candidateOrder) }
                default: try s.skipValue()
                }
            }
            try requireAll(seen, Self.eventRequired, eventKeys, "events[\(n)]", at: start)
            if keep & (1 << UInt64(kindIndex)) != 0 {
                func text(_ at: Int?) -> String? { at.map { s.string(at: $0) } }
                var f = SimEvent.Fields(atUs: atUs, kind: kind, app: text(app))
                f.action = text(action); f.cause = text(cause); f.detail = text(detail)
                f.handler = text(handler); f.notification = text(notification); f.object = text(objectName)
                f.bytes = bytes; f.compressedBytes = compressed; f.freedBytes = freed
                f.latencyUs = latency; f.neededBytes = needed; f.usedBytes = used
                f.from = from; f.to = to; f.callback = callback; f.reason = reason; f.level = level
                if let kept {
                    if let band = kept.band { throw band }
                    f.candidates = kept.list
                }
                do {
                    let event = try SimEvent(f)
                    if let sink { sink.add(event) } else {
                        out.append(event)
                        if out.count > keptLimit { try handOver(&out) }
                    }
                } catch let error as SimEvent.FieldsError {
                    throw problem("events[\(n)].\(error.key): \(error.description)", at: start)
                }
            }
            n += 1
            if n & 1023 == 0 { releaseBehind() }
        }
        return out
    }

    /// Hands the events held to the sink once it is free, and the next ones as they come.
    mutating func handOver(_ held: inout [SimEvent]) throws {
        guard let sink = sinkWhenFree?() else { throw SplitRead.Abandoned() }
        for event in held { sink.add(event) }
        held.removeAll()
        self.sink = sink
        keptLimit = .max
    }

    mutating func releaseBehind() {
        guard let release, s.index - released > 4 << 20 else { return }
        release(released..<s.index)
        released = s.index
    }

    static let candidateKeys = KeyTable(["app", "band", "footprintBytes", "lastForegroundUs", "state", "taken"])
    static let candidateRequired: UInt64 = 1 << 0 | 1 << 2 | 1 << 3 | 1 << 4 | 1 << 5

    /// The candidates of a reclaim (with `keep`; those taken only with `takenCandidatesOnly`),
    /// and the first of them whose band is out of range, for the caller to refuse if it keeps the event.
    mutating func candidates(keep: Bool, event: Int, order: inout KeyOrder) throws -> (list: [SimEvent.Candidate], band: SchemaProblem?) {
        // Local copies: one retain per list, not one per use.
        let candidateKeys = tables.candidateKeys, states = tables.states
        // The path in messages is made only for a message (capturing whole numbers, not a string).
        func path() -> String { "events[\(event)].candidates" }
        try beginArray(path())
        var out: [SimEvent.Candidate] = []
        var bandProblem: SchemaProblem?
        var first = true
        var n = 0
        while try s.nextElement(first: &first) {
            let start = s.index
            try beginObject(level: 1, "\(path())[\(n)]")
            var seen: UInt64 = 0
            var object = true
            var app = 0, band: Int64?, footprint: Int64 = 0, last: Int64 = 0, state = AppState.notRunning, taken = false
            while let k = try nextKnown(candidateKeys, first: &object, seen: &seen, order: &order, level: 1) {
                func at() -> String { "\(path())[\(n)].\(Reader.candidateKeys.names[k])" }
                switch k {
                case 0: app = try optionalStringAt(at()) ?? -1
                case 1: band = try optionalInt(at())
                case 2: footprint = try int(at())
                case 3: last = try int(at())
                case 4: state = try choice(states, at())
                default:
                    guard s.peek() == 0x74 || s.peek() == 0x66 else { throw problem("\(at()): expected true or false, found \(s.what(s.index))", at: s.index) }
                    taken = try s.readBool()
                }
            }
            try requireAll(seen, Self.candidateRequired, candidateKeys, "\(path())[\(n)]", at: start)
            guard app >= 0 else { throw problem("\(path())[\(n)].app: expected a string, found null", at: start) }
            if keep && (taken || !options.takenCandidatesOnly) {
                var c = SimEvent.Candidate(app: s.string(at: app), state: state, footprintBytes: footprint,
                                           lastForegroundUs: last, taken: taken)
                if let band {
                    do { c.band = try smallInt(band, "\(path())[\(n)].band", at: start) } catch let problem as SchemaProblem {
                        if bandProblem == nil { bandProblem = problem }
                    }
                }
                out.append(c)
            }
            n += 1
        }
        return (out, bandProblem)
    }

    func smallInt(_ value: Int64, _ path: @autoclosure () -> String, at offset: Int) throws -> Int {
        guard let v = Int(exactly: value) else { throw problem("\(path()): \(value) is out of range", at: offset) }
        return v
    }

    // MARK: timeline

    static let timelineKeys = KeyTable(["appBytes", "compressedBytes", "compressorBytes", "levels", "usedBytes"])
    static let levelKeys = KeyTable(["atUs", "level"])

    mutating func timeline() throws -> Timeline {
        // Local copies: one retain per list, not one per use.
        let timelineKeys = tables.timelineKeys, levelKeys = tables.levelKeys, levels = tables.levels
        let start = s.index
        try beginObject(level: 0, "timeline")
        var t = Timeline()
        var seen: UInt64 = 0
        var first = true
        var order = KeyOrder(states: 1 + timelineKeys.count)
        defer { order.free() }
        while let k = try nextKnown(timelineKeys, first: &first, seen: &seen, order: &order, level: 0) {
            switch k {
            case 0:
                try beginObject(level: 1, "timeline.appBytes")
                var apps = JSONScanner.KeySet()
                var firstApp = true
                while let key = try s.nextMember(first: &firstApp) {
                    try s.insert(key, into: &apps)
                    let name = s.string(key)
                    t.appBytes[name] = try pairs("timeline.appBytes.\(name)")
                }
            case 1: t.compressedBytes = try pairs("timeline.compressedBytes")
            case 2: t.compressorBytes = try pairs("timeline.compressorBytes")
            case 4: t.usedBytes = try pairs("timeline.usedBytes")
            default:
                try beginArray("timeline.levels")
                var firstLevel = true
                var n = 0
                var levelOrder = KeyOrder(states: 1 + levelKeys.count)
                defer { levelOrder.free() }
                while try s.nextElement(first: &firstLevel) {
                    let at = s.index
                    try beginObject(level: 1, "timeline.levels[\(n)]")
                    var seenLevel: UInt64 = 0
                    var object = true
                    var change = Timeline.LevelChange(atUs: 0, level: .normal)
                    while let j = try nextKnown(levelKeys, first: &object, seen: &seenLevel, order: &levelOrder, level: 1) {
                        if j == 0 { change.atUs = try int("timeline.levels[\(n)].atUs") } else {
                            change.level = try choice(levels, "timeline.levels[\(n)].level")
                        }
                    }
                    try requireAll(seenLevel, 3, levelKeys, "timeline.levels[\(n)]", at: at)
                    t.levels.append(change)
                    n += 1
                }
            }
        }
        // Every key but `compressorBytes` (written only by a run with an in-RAM compressor).
        try requireAll(seen, 0b1_1011, timelineKeys, "timeline", at: start)
        return t
    }

    /// A series of `[atUs, value]` pairs, reduced as the options ask.
    mutating func pairs(_ path: String) throws -> [[Int64]] {
        try beginArray(path)
        var first = true
        var n = 0
        var out: [[Int64]] = []
        var reducer = options.seriesBuckets.map { SeriesReducer(buckets: max(1, $0)) }
        while try s.nextElement(first: &first) {
            n += 1
            if n & 16383 == 0 { releaseBehind() }
            // Most often `[atUs,value]` as memprof writes it.
            if let (a, b) = s.readPlainPair() {
                if reducer != nil { reducer!.add(a, b) } else { out.append([a, b]) }
                continue
            }
            try beginArray("\(path)[\(n - 1)]")
            var inner = true
            var pair: [Int64] = []
            var a: Int64 = 0, b: Int64 = 0, count = 0
            while try s.nextElement(first: &inner) {
                let v = try int("\(path)[\(n - 1)][\(count)]")
                if reducer == nil { pair.append(v) } else if count == 0 { a = v } else if count == 1 { b = v }
                count += 1
            }
            if reducer != nil {
                if count >= 2 { reducer!.add(a, b) }
            } else {
                out.append(pair)
            }
        }
        return reducer?.finish() ?? out
    }

    // MARK: jetsam snapshots

    static let jetsamKeys = KeyTable(["atUs", "compressor", "exitReason", "killed", "largestProcess", "pageSize",
                                      "processes", "unlisted"])
    static let compressorKeys = KeyTable(["compressions", "decompressions", "pages", "uncompressedPages"])
    static let unlistedKeys = KeyTable(["processes", "rpages"])
    static let processKeys = KeyTable(["name", "pid", "priority", "reason", "rpages", "states"])

    mutating func jetsamEvents() throws -> [JetsamEvent] {
        // Local copies: one retain per list, not one per use.
        let jetsamKeys = tables.jetsamKeys, processKeys = tables.processKeys, reasons = tables.reasons
        try beginArray("jetsamEvents")
        var out: [JetsamEvent] = []
        var first = true
        var n = 0
        var order = KeyOrder(states: 1 + jetsamKeys.count), processOrder = KeyOrder(states: 1 + processKeys.count)
        defer { order.free(); processOrder.free() }
        while try s.nextElement(first: &first) {
            let start = s.index
            try beginObject(level: 0, "jetsamEvents[\(n)]")
            var seen: UInt64 = 0
            var object = true
            var event = JetsamEvent(atUs: 0, killed: "", exitReason: .memoryPressure, largestProcess: "", pageSize: 0, processes: [])
            while let k = try nextKnown(jetsamKeys, first: &object, seen: &seen, order: &order, level: 0) {
                func path() -> String { "jetsamEvents[\(n)].\(Reader.jetsamKeys.names[k])" }
                switch k {
                case 0: event.atUs = try int(path())
                case 1: event.compressor = try compressor(path())
                case 2: event.exitReason = try choice(reasons, path())
                case 3: event.killed = try string(path())
                case 4: event.largestProcess = try string(path())
                case 5: event.pageSize = try int(path())
                case 7: event.unlisted = try unlisted(path())
                default:
                    try beginArray(path())
                    var firstProcess = true
                    var p = 0
                    while try s.nextElement(first: &firstProcess) {
                        let at = s.index
                        try beginObject(level: 1, "\(path())[\(p)]")
                        var seenProcess: UInt64 = 0
                        var inner = true
                        // Made into a `Process` only when process lists are kept.
                        var name = "", pid: Int?, priority: Int?, reason: String?, rpages: Int64 = 0, states: [String] = []
                        while let j = try nextKnown(processKeys, first: &inner, seen: &seenProcess, order: &processOrder, level: 1) {
                            func field() -> String { "\(path())[\(p)].\(Reader.processKeys.names[j])" }
                            switch j {
                            case 0: name = try keepString(field())
                            case 1: pid = try optionalInt(field()).map { try smallInt($0, field(), at: at) }
                            case 2: priority = try optionalInt(field()).map { try smallInt($0, field(), at: at) }
                            case 3:
                                let offset = try optionalStringAt(field())
                                if options.jetsamProcesses { reason = offset.map { s.string(at: $0) } }
                            case 4: rpages = try int(field())
                            default:
                                try beginArray(field())
                                var firstState = true
                                var k = 0
                                while try s.nextElement(first: &firstState) {
                                    let state = try keepString("\(field())[\(k)]")
                                    if options.jetsamProcesses { states.append(state) }
                                    k += 1
                                }
                            }
                        }
                        try requireAll(seenProcess, 1 << 0 | 1 << 4 | 1 << 5, processKeys, "\(path())[\(p)]", at: at)
                        if options.jetsamProcesses {
                            event.processes.append(JetsamEvent.Process(pid: pid, priority: priority, name: name, rpages: rpages,
                                                                       states: states, reason: reason))
                        }
                        p += 1
                    }
                }
            }
            // Every key but `compressor` (written only by a run with an in-RAM compressor) and
            // `unlisted` (only by a snapshot that leaves processes out).
            try requireAll(seen, 0b111_1101, jetsamKeys, "jetsamEvents[\(n)]", at: start)
            out.append(event)
            n += 1
            if n & 255 == 0 { releaseBehind() }
        }
        return out
    }

    /// The `unlisted` object of a jetsam snapshot at `path`: how many processes it leaves out (1
    /// to 2^31) and their resident pages (0 to 2^52).
    mutating func unlisted(_ path: String) throws -> JetsamEvent.Unlisted {
        let values = try counts(tables.unlistedKeys, Reader.unlistedKeys.names, path,
                                ranges: [(1, 31, "1 to 2^31"), (0, 52, "0 to 2^52 pages")])
        return JetsamEvent.Unlisted(processes: Int(values[0]), rpages: values[1])
    }

    /// An object at `path` of every key of `keys` (named `names`), each a whole number from its
    /// range's lowest to 2 to the power of its bits, the range in words for the message.
    mutating func counts(_ keys: KeyTable, _ names: [String], _ path: String,
                         ranges: [(low: Int64, bits: Int64, words: String)]) throws -> [Int64] {
        let start = s.index
        try beginObject(level: 1, path)
        var seen: UInt64 = 0
        var first = true
        var order = KeyOrder(states: 1 + keys.count)
        defer { order.free() }
        var values = [Int64](repeating: 0, count: ranges.count)
        while let k = try nextKnown(keys, first: &first, seen: &seen, order: &order, level: 1) {
            let at = s.index
            let v = try int("\(path).\(names[k])")
            guard v >= ranges[k].low, v <= 1 << ranges[k].bits else {
                throw problem("\(path).\(names[k]): \(v) is out of range (\(ranges[k].words))", at: at)
            }
            values[k] = v
        }
        try requireAll(seen, 1 << UInt64(ranges.count) - 1, keys, path, at: start)
        return values
    }

    /// The `compressor` object of a jetsam snapshot at `path`: four counts of pages, each from 0 to
    /// 2^52, the pool's pages at most those it holds uncompressed (its ratio is at least 1) and the
    /// decompressions at most the compressions (only a compressed page is decompressed).
    mutating func compressor(_ path: String) throws -> JetsamEvent.Compressor {
        let start = s.index
        let values = try counts(tables.compressorKeys, Reader.compressorKeys.names, path,
                                ranges: Array(repeating: (0, 52, "0 to 2^52 pages"), count: 4))
        let c = JetsamEvent.Compressor(pages: values[2], uncompressedPages: values[3], compressions: values[0],
                                       decompressions: values[1])
        guard c.pages <= c.uncompressedPages else {
            throw problem("\(path).pages: \(c.pages) is more than uncompressedPages (\(c.uncompressedPages))", at: start)
        }
        guard c.decompressions <= c.compressions else {
            throw problem("\(path).decompressions: \(c.decompressions) is more than compressions (\(c.compressions))", at: start)
        }
        return c
    }
}

/// The report's large sections as empty stand-ins, for decoding the rest of the report.
struct StandIn {
    let key: UnsafeBufferPointer<UInt8>
    let value: UnsafeBufferPointer<UInt8>

    init(_ key: String, _ value: String) {
        func bytes(_ text: String) -> UnsafeBufferPointer<UInt8> {
            let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: text.utf8.count)
            _ = buffer.initialize(from: text.utf8)
            return UnsafeBufferPointer(buffer)
        }
        self.key = bytes(key)
        self.value = bytes(value)
    }

    // Made once, kept for the life of the program.
    nonisolated(unsafe) static let events = StandIn("events", "[]")
    nonisolated(unsafe) static let jetsamEvents = StandIn("jetsamEvents", "[]")
    nonisolated(unsafe) static let timeline = StandIn("timeline", #"{"appBytes":{},"compressedBytes":[],"levels":[],"usedBytes":[]}"#)
}

/// The order of an object's keys, learned while reading a list of like objects: for each state
/// (0 at the start of an object, 1 + k after key k, and states of the caller's own beyond, such
/// as an event's kind), the key that came next the last time. memprof writes each kind of object
/// with the same keys in the same order, so the guess is most often right and the next key is
/// read with one comparison.
struct KeyOrder {
    var state = 0
    let next: UnsafeMutablePointer<Int8>

    init(states: Int) {
        next = .allocate(capacity: states)
        next.initialize(repeating: -1, count: states)
    }

    /// The key guessed to come next: the one learned, else the table's next (or its first).
    @inline(__always) func guess(keys: Int) -> Int {
        let learned = Int(next[state])
        return learned >= 0 ? learned : state < keys ? state : 0
    }

    /// Key `k` came next.
    @inline(__always) mutating func found(_ k: Int) {
        next[state] = Int8(truncatingIfNeeded: k)
        state = 1 + k
    }

    func free() { next.deallocate() }
}

/// The tables of `Reader`, in one object.
final class Tables: Sendable {
    static let shared = Tables()
    let topKeys = Reader.topKeys, eventKeys = Reader.eventKeys, candidateKeys = Reader.candidateKeys
    let timelineKeys = Reader.timelineKeys, levelKeys = Reader.levelKeys
    let jetsamKeys = Reader.jetsamKeys, processKeys = Reader.processKeys, compressorKeys = Reader.compressorKeys
    let unlistedKeys = Reader.unlistedKeys
    let kinds = Reader.kinds, states = Reader.states, callbacks = Reader.callbacks
    let reasons = Reader.reasons, levels = Reader.levels
    /// Bit `k` for the `k`th of `SimEvent.Kind.allCases`.
    func mask(_ kinds: Set<SimEvent.Kind>?) -> UInt64 {
        guard let kinds else { return ~0 }
        var mask: UInt64 = 0
        for (k, kind) in self.kinds.cases.enumerated() where kinds.contains(kind) { mask |= 1 << UInt64(k) }
        return mask
    }
}

/// Reduces a step series while it is read, keeping at most about `2 × buckets` points: when
/// twice that many are held, each of `buckets` equal slices of the time seen so far keeps only
/// its smallest and largest point (in time order). Every maximum and minimum of the series
/// survives, however long it is.
struct SeriesReducer {
    let buckets: Int
    var points: [(Int64, Int64)] = []

    init(buckets: Int) {
        self.buckets = buckets
        points.reserveCapacity(4 * buckets + 1)
    }

    mutating func add(_ t: Int64, _ v: Int64) {
        points.append((t, v))
        if points.count > 4 * buckets { reduce() }
    }

    mutating func reduce() {
        guard points.count > 2 * buckets, let start = points.first?.0, let end = points.last?.0 else { return }
        let width = max(1e-9, (Double(end) - Double(start)) / Double(buckets))
        points = MinMaxBuckets.reduce(points, start: start, width: width, buckets: buckets, time: \.0, value: \.1)
    }

    mutating func finish() -> [[Int64]] {
        reduce()
        return points.map { [$0.0, $0.1] }
    }
}

extension ReportJSON {
    /// Decodes a report, refusing files that are not reports or are of a schema this version does
    /// not know (`ReportReader`, keeping everything).
    public static func decode(_ data: Data) throws -> Report {
        do {
            return try data.withUnsafeBytes { try ReportReader.read($0) }
        } catch let failure as ReportReadFailure {
            throw failure.error
        }
    }
}

/// A decoding error in words, with the key path where it happened: "summary: missing key 'evictions'".
func describe(_ error: DecodingError) -> String {
    func place(_ keys: [any CodingKey]) -> String { keys.isEmpty ? "the top" : JSONFile.keyPath(keys) }
    switch error {
    case .keyNotFound(let key, let context):
        return "\(place(context.codingPath)): missing key '\(key.stringValue)'"
    case .typeMismatch(let type, let context):
        return "\(place(context.codingPath)): expected \(words(type)), found something else"
    case .valueNotFound(let type, let context):
        return "\(place(context.codingPath)): expected \(words(type)), found null"
    case .dataCorrupted(let context):
        return "\(place(context.codingPath)): \(context.debugDescription)"
    @unknown default:
        return "\(error)"
    }
}

/// A type as a decoding error names what it expected: `a whole number`, `a list`.
func words(_ type: Any.Type) -> String {
    switch type {
    case is Int.Type, is Int64.Type, is UInt64.Type, is Int32.Type: "a whole number"
    case is Double.Type: "a number"
    case is String.Type: "a string"
    case is Bool.Type: "true or false"
    default: "\(type)".hasPrefix("Array") ? "a list" : "\(type)".hasPrefix("Dictionary") ? "an object" : "\(type)"
    }
}

/// The numbers of a JSON value, each with its key path and place: for locating the one a
/// decoder refused without saying where.
struct NumberTokens {
    let buffer: UnsafeBufferPointer<UInt8>
    let start: Int
    let end: Int
    let path: String

    var text: String { String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<end]), as: UTF8.self) }
    var isFraction: Bool { buffer[start..<end].contains { $0 == 0x2E || $0 == 0x65 || $0 == 0x45 } }
    var fitsDouble: Bool { Double(text).map { $0.isFinite } ?? false }

    func offset(from base: UnsafePointer<UInt8>) -> Int { buffer.baseAddress! + start - base }

    /// Every number of `value` (one JSON value, already checked by the scanner), its path under `key`.
    static func find(in value: UnsafeBufferPointer<UInt8>, key: String) -> [NumberTokens] {
        var out: [NumberTokens] = []
        // Per open container: its path, and for an object the key last read (nil: a list, with its index).
        var stack: [(path: String, key: String?, index: Int)] = []
        var i = 0
        func here() -> String {
            guard let top = stack.last else { return key }
            if let k = top.key { return top.path.isEmpty ? k : "\(top.path).\(k)" }
            return "\(top.path)[\(top.index)]"
        }
        while i < value.count {
            let c = value[i]
            switch c {
            case 0x7B, 0x5B:  // { [
                let path = here()
                stack.append((path, c == 0x7B ? "" : nil, 0))
                i += 1
            case 0x7D, 0x5D:
                stack.removeLast()
                i += 1
            case 0x2C:  // ,
                if let top = stack.last, top.key == nil { stack[stack.count - 1].index += 1 }
                i += 1
            case 0x22:  // a string: a key when a colon follows in an object
                var j = i + 1
                while j < value.count && value[j] != 0x22 { j += value[j] == 0x5C ? 2 : 1 }
                let text = String(decoding: UnsafeBufferPointer(rebasing: value[(i + 1)..<min(j, value.count)]), as: UTF8.self)
                var k = j + 1
                while k < value.count && (value[k] == 0x20 || value[k] == 0x0A || value[k] == 0x0D || value[k] == 0x09) { k += 1 }
                if k < value.count && value[k] == 0x3A, let top = stack.last, top.key != nil {
                    stack[stack.count - 1].key = text
                }
                i = j + 1
            case 0x2D, 0x30...0x39:
                var j = i
                while j < value.count, value[j] == 0x2D || value[j] == 0x2B || value[j] == 0x2E || value[j] == 0x65
                    || value[j] == 0x45 || (0x30...0x39).contains(value[j]) { j += 1 }
                out.append(NumberTokens(buffer: value, start: i, end: j, path: here()))
                i = j
            default:
                i += 1
            }
        }
        return out
    }
}
