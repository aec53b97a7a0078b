import MemprofCore
import MemprofReport

/// What one swimlane draws for a stretch of time: an app's state, or, where many short states
/// follow each other too fast to see, every state it held there (`states`), so no interval is
/// lost from the picture, with the one it spent longest in and a count of those merged.
public struct LaneSegment: Sendable, Hashable {
    public var startUs: Microseconds
    public var endUs: Microseconds
    public var state: AppState
    public var cause: String
    /// How many intervals this segment stands for (1 for an exact one).
    public var merged: Int
    /// Every state held in the segment, in `AppState` order (just `state` for an exact one).
    public var states: [AppState]

    public init(startUs: Microseconds, endUs: Microseconds, state: AppState, cause: String, merged: Int = 1,
                states: [AppState]? = nil) {
        self.startUs = startUs
        self.endUs = endUs
        self.state = state
        self.cause = cause
        self.merged = merged
        self.states = states ?? [state]
    }
}

public enum Lanes {
    /// Segments to draw for `intervals` (sorted, contiguous): intervals at least `minLengthUs`
    /// long are kept as they are; a run of shorter ones is merged, in pieces of about
    /// `minLengthUs`, into segments that take the state the run spent longest in.
    /// The segments still tile the same time span, so a lane has at most about
    /// `span / minLengthUs` segments plus its long intervals.
    public static func segments(_ intervals: [StateInterval], minLengthUs: Microseconds) -> [LaneSegment] {
        var out: [LaneSegment] = []
        var builder = Builder(minLengthUs: minLengthUs)
        for interval in intervals { builder.add(interval) { out.append($0) } }
        builder.finish { out.append($0) }
        return out
    }

    /// ``segments(_:minLengthUs:)`` one interval at a time (a streamed run's): holds
    /// only the short intervals of the piece being merged.
    public struct Builder {
        let minLengthUs: Microseconds
        private var group: [StateInterval] = []

        public init(minLengthUs: Microseconds) {
            self.minLengthUs = minLengthUs
        }

        public mutating func add(_ interval: StateInterval, _ emit: (LaneSegment) -> Void) {
            if interval.lengthUs >= minLengthUs {
                flushGroup(emit)
                emit(LaneSegment(startUs: interval.startUs, endUs: interval.endUs, state: interval.state,
                                 cause: interval.cause?.text ?? ""))
                return
            }
            group.append(interval)
            if let first = group.first, interval.endUs - first.startUs >= minLengthUs { flushGroup(emit) }
        }

        public mutating func finish(_ emit: (LaneSegment) -> Void) { flushGroup(emit) }

        private static let states = AppState.allCases

        private mutating func flushGroup(_ emit: (LaneSegment) -> Void) {
            guard let first = group.first, let last = group.last else { return }
            if group.count == 1 {
                emit(LaneSegment(startUs: first.startUs, endUs: first.endUs, state: first.state,
                                 cause: first.cause?.text ?? ""))
            } else {
                // Time in each state (by its place in `AppState.allCases`; nil: not held).
                var time = [Microseconds?](repeating: nil, count: Self.states.count)
                for interval in group {
                    let place = Self.states.firstIndex(of: interval.state)!
                    time[place] = (time[place] ?? 0) + interval.lengthUs
                }
                let dominant = Self.states.indices.max { (time[$0] ?? 0) < (time[$1] ?? 0) }.map { Self.states[$0] }
                    ?? first.state
                emit(LaneSegment(startUs: first.startUs, endUs: last.endUs, state: dominant,
                                 cause: "\(group.count) changes", merged: group.count,
                                 states: Self.states.indices.filter { time[$0] != nil }.map { Self.states[$0] }))
            }
            group.removeAll(keepingCapacity: true)
        }
    }
}

/// The first and last rows of a long list, and how many were left out between them.
public struct HeadTail<Element> {
    public var head: ArraySlice<Element>
    public var omitted: Int
    public var tail: ArraySlice<Element>

    /// All of `items` when there are at most `limit`; otherwise the first and last `limit / 2`.
    public init(_ items: [Element], limit: Int) {
        if items.count <= limit {
            head = items[...]
            omitted = 0
            tail = []
        } else {
            let half = max(1, limit / 2)
            head = items.prefix(half)
            tail = items.suffix(half)
            omitted = items.count - 2 * half
        }
    }
}
