import MemprofCore
import MemprofHTML
import MemprofReport
import MemprofReportReader

/// What `compare` and `check` keep of a report's decision events, gathered while it is read
/// (`ReportLoader.load(_:options:sink:)`) instead of the events themselves: the chart's decision
/// marks (`DecisionMarks`) and the counts and first times of each eviction, kill and warning
/// (`RegressionCauses.Happenings`). Its memory grows with the apps, not with the run.
public final class DecisionDigest: ReportEventSink {
    var builder = DecisionRowBuilder()
    public private(set) var marks = DecisionMarks()
    public private(set) var happenings: RegressionCauses.Happenings
    /// Further readers of the same events (`Evidence.Digest`).
    var also: [(SimEvent) -> Void] = []
    public private(set) var eventsRange: Range<Int>?
    var finished = false

    /// For the base run, or a run read alone.
    public init() { happenings = RegressionCauses.Happenings() }

    /// For the new run, against the base's digest (read first).
    public init(base: DecisionDigest) { happenings = RegressionCauses.Happenings(base: base.finish().happenings) }

    public func add(_ event: SimEvent) {
        builder.add(event, take)
        for reader in also { reader(event) }
    }

    public func eventsRead(at range: Range<Int>) { eventsRange = range }

    /// Hands every event this digest reads to `sink` as well.
    public func send(to sink: ReportEventSink) { also.append(sink.add) }

    private func take(_ row: DecisionRow) {
        marks.add(row)
        happenings.add(row)
    }

    /// The digest once the events are over.
    @discardableResult public func finish() -> DecisionDigest {
        if !finished {
            finished = true
            builder.finish(take)
        }
        return self
    }
}

/// A sink that hands each event to a closure.
public final class EventVisitor: ReportEventSink {
    let visit: (SimEvent) -> Void
    public init(_ visit: @escaping (SimEvent) -> Void) { self.visit = visit }
    public func add(_ event: SimEvent) { visit(event) }
}
