import MemprofCore

/// The marks a memory chart draws for a run's decisions, gathered one decision row at a time in
/// memory that does not grow with the run, yet drawn exactly as from every decision.
///
/// A chart draws one mark per kind and pixel column, at `round(x(t))` with `x` growing with `t`,
/// over a time axis at least as long as the latest decision seen so far (`latest`). Of three
/// marks of a kind in time order whose outer two are less than half a column apart on any such
/// axis, the middle one lands in the column of one of the others, so it can be left out without
/// changing which columns are marked nor the order in which columns are first marked. Marks are
/// left out this way whenever a kind holds many, which keeps each kind to a few per column of
/// `columns` (marks out of time order, which memprof never writes, are all kept).
public struct DecisionMarks: Sendable {
    /// More than the columns of any chart: the gap under which a middle mark is left out.
    public static let columns = 2048.0

    /// Per kind of `MemoryChart.markKinds`, the times kept, in the order of the rows.
    var times: [[Microseconds]] = Array(repeating: [], count: MemoryChart.markKinds.count)
    var limits: [Int] = Array(repeating: 4 * Int(DecisionMarks.columns), count: MemoryChart.markKinds.count)
    /// The latest decision seen: the chart's time axis is at least this long.
    var latest: Microseconds = 0

    public init() {}

    /// Adds the mark of `row` (reclaims that took nothing have none).
    public mutating func add(_ row: DecisionRow) {
        latest = max(latest, row.atUs)
        guard let kind = MemoryChart.markKinds.firstIndex(where: { $0.kind == row.kind }) else { return }
        times[kind].append(row.atUs)
        if times[kind].count > limits[kind] {
            thin(kind)
            // Out-of-order marks cannot be thinned: then allow more before trying again.
            if times[kind].count > limits[kind] / 2 { limits[kind] *= 2 }
        }
    }

    mutating func thin(_ kind: Int) {
        let list = times[kind]
        guard list.count > 2, latest > 0 else { return }
        let gap = Double(latest) / Self.columns
        var kept: [Microseconds] = [list[0]]
        kept.reserveCapacity(list.count / 2)
        for i in 1..<(list.count - 1) {
            let before = kept[kept.count - 1], t = list[i], after = list[i + 1]
            if before <= t, t <= after, Double(after) - Double(before) < gap { continue }
            kept.append(t)
        }
        kept.append(list[list.count - 1])
        times[kind] = kept
    }

    /// The marks, kind by kind, each kind's in the order of the rows.
    public var marks: [(atUs: Microseconds, kind: SimEvent.Kind)] {
        MemoryChart.markKinds.indices.flatMap { kind in times[kind].map { ($0, MemoryChart.markKinds[kind].kind) } }
    }

    /// How many marks are held.
    public var count: Int { times.reduce(0) { $0 + $1.count } }
}
