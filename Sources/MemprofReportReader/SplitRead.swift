import Foundation
import MemprofCore
import MemprofInput

/// A large report read by two threads: the second starts at an element of the
/// `events` list, about two fifths of the way from the list to the end of the file, and reads
/// from there to the end (the rest of the events, then the top object's members after them),
/// while the first reads from the start up to that element and then takes what the second read.
///
/// Where the second starts is found by its bytes (`},{"app":"…","atUs":` or `},{"atUs":`,
/// which no JSON string can hold), so it is only a guess: the first reader takes the second's
/// work only if it meets an element of the top-level `events` list at exactly that offset, and
/// only if the second read its part of the events without a problem. Otherwise the first reads
/// on by itself, as if there had been no second reader: the result, every message and its place
/// are those of one reader going through the whole file.
///
/// With a sink, the second reader holds the events it keeps until the first has handed its own
/// to the sink; past ``heldForSink`` it waits for the first to reach the split point and then
/// hands them on itself (the first waits meanwhile), so the sink gets every event in order, from
/// one thread at a time. (Should the second reader then fail in the events, the first reads them
/// again and hands them on again before it fails the same way: a failed read's sink is not used.)
public final class SplitRead: @unchecked Sendable {
    /// The second reader gave up: the first reads its part.
    struct Abandoned: Error {}

    /// What the second reader read.
    struct Rest {
        /// The events from the split to the end of the list, kept as the options ask.
        var events: [SimEvent]
        /// Where the events list ends (after its ']').
        var eventsEnd: Int
        /// The top object's members after the events list.
        var members: Reader.TopMembers
        /// What stopped it after the events list (the members read before it are in `members`).
        var error: (any Error)?
    }

    /// Where the second reader starts: the '{' of an element of the events list.
    let offset: Int
    private var reader: Reader
    private var rest: Rest?
    private let done = DispatchSemaphore(value: 0)
    private var joined = false
    /// What the second reader read, once ``take()`` found it usable.
    private(set) var taken: Rest?

    /// Smaller reports are read by one thread (the second would not pay for itself).
    public static let minimumBytes = 2 << 20
    /// The share of the bytes from the events list to the end that the first reader reads: the
    /// events cost more per byte than the jetsam snapshots and the timeline the second reads after them.
    static let share = 0.42
    /// Events the second reader holds for a sink at most (kept kinds only); past that it waits
    /// for the first to reach the split point and hands them on itself, the first waiting.
    static let heldForSink = 1 << 16

    /// The first reader's sink, and the handing over of it: the first reader signals `arrival`
    /// when it has reached the split point (`arrived`) or ended without reaching it.
    private let sink: ReportEventSink?
    private let arrival = DispatchSemaphore(value: 0)
    private var arrived = false
    private var signalled = false

    /// Starts the second reader, when the machine has a second core and a split point is found.
    init?(_ bytes: UnsafeRawBufferPointer, share: Double = SplitRead.share, options: ReportReadOptions,
          release: (@Sendable (Range<Int>) -> Void)?, sink: ReportEventSink?, held: Int = SplitRead.heldForSink) {
        guard ProcessInfo.processInfo.activeProcessorCount > 1,
              let offset = Self.point(in: bytes, share: share) else { return nil }
        self.offset = offset
        self.sink = sink
        reader = Reader(JSONScanner(bytes), options: options, release: release)
        reader.s.index = offset
        // Inside the top object and its events list.
        reader.s.depth = 2
        reader.released = offset
        if sink != nil {
            reader.keptLimit = held
            reader.sinkWhenFree = { [unowned self] in
                arrival.wait()
                return arrived ? self.sink : nil
            }
        }
        release?(offset..<offset)
        let thread = Thread { [self] in run() }
        thread.name = "memprof reader"
        thread.stackSize = 1 << 22
        thread.start()
    }

    private func run() {
        defer { done.signal() }
        do {
            var rest = Rest(events: try reader.events(continuing: true), eventsEnd: reader.s.index, members: .init())
            var first = false
            do {
                _ = try reader.members(&rest.members, first: &first)
                try reader.s.expectEnd("the end of the report")
            } catch is Abandoned {
                return
            } catch {
                rest.error = error
            }
            self.rest = rest
        } catch {
            // A problem in its events: the first reader meets it itself, with the event's index.
        }
    }

    /// At the split point: waits for the second reader (which may use the sink meanwhile);
    /// whether it read the rest (``taken`` then holds it).
    func take() -> Bool {
        arrived = true
        join()
        taken = rest
        return rest != nil
    }

    /// Waits for the second reader to end (before the bytes go away); without ``take()``, a
    /// second reader waiting for the sink gives up.
    func join() {
        guard !joined else { return }
        if !signalled {
            signalled = true
            arrival.signal()
        }
        done.wait()
        joined = true
    }

    /// The split point: the first element after the share of the bytes from the events list on
    /// that starts as memprof writes an event (nil when there is none within a megabyte).
    static func point(in bytes: UnsafeRawBufferPointer, share: Double = SplitRead.share) -> Int? {
        let p = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), n = bytes.count
        guard let list = find("\"events\":[", in: p, from: 0, to: min(n, 16 << 20)) else { return nil }
        var i = list + Int(Double(n - list) * share)
        let limit = min(n, i + (1 << 20))
        while let at = find("},{\"", in: p, from: i, to: limit) {
            if startsEvent(p, at + 2, n) { return at + 2 }
            i = at + 1
        }
        return nil
    }

    /// Whether the bytes at `k` are `{"atUs":` or `{"app":"NAME","atUs":`.
    private static func startsEvent(_ p: UnsafePointer<UInt8>, _ k: Int, _ n: Int) -> Bool {
        if matches("{\"atUs\":", p, k, n) { return true }
        guard matches("{\"app\":\"", p, k, n) else { return false }
        var i = k + 8
        while i < n, i < k + 264, p[i] != 0x22, p[i] != 0x5C { i += 1 }
        return i < n && p[i] == 0x22 && matches(",\"atUs\":", p, i + 1, n)
    }

    private static func matches(_ word: StaticString, _ p: UnsafePointer<UInt8>, _ at: Int, _ n: Int) -> Bool {
        at + word.utf8CodeUnitCount <= n && memcmp(p + at, word.utf8Start, word.utf8CodeUnitCount) == 0
    }

    /// The offset of the first `word` in `p[from..<to]`.
    private static func find(_ word: StaticString, in p: UnsafePointer<UInt8>, from: Int, to: Int) -> Int? {
        let first = word.utf8Start.pointee, length = word.utf8CodeUnitCount
        var i = from
        while i + length <= to {
            guard let hit = memchr(p + i, Int32(first), to - length + 1 - i) else { return nil }
            let at = UnsafePointer<UInt8>(hit.assumingMemoryBound(to: UInt8.self)) - p
            if memcmp(p + at, word.utf8Start, length) == 0 { return at }
            i = at + 1
        }
        return nil
    }
}

extension Reader {
    /// Adds the members the split's second reader read after the events to `top`, as if this
    /// reader had read them: a key given twice is refused where the second one is, and an error
    /// it met is thrown after the keys before it are checked.
    mutating func take(_ rest: SplitRead.Rest, into top: inout TopMembers) throws {
        for key in rest.members.keys { try s.insert(key, into: &top.seen) }
        top.keys += rest.members.keys
        if let error = rest.error { throw error }
        top.small += rest.members.small
        if let jetsam = rest.members.jetsam { top.jetsam = jetsam }
        if let timeline = rest.members.timeline { top.timeline = timeline }
        if let schema = rest.members.schema { top.schema = schema }
        if top.problem == nil { top.problem = rest.members.problem }
    }
}
