/// The script's occurrences in (time, sequence) order, read one at a time (`Simulator.nextOccurrence`):
/// the workload's script and the streams of its `generate` (``ScriptGenerator``), merged as the
/// run goes instead of queued up front, so a run's memory does not grow with its script.
///
/// Numbered as if every entry were scheduled before the run starts: the script's entries in
/// their order, then the generated switches, then the generated homes, then each app's
/// sessions; so the order of everything is the queue's (time, then sequence) either way.
struct ScriptFeed {
    private let script: [ScriptEntry]
    /// The script's entries in time order (stable) when they are not already; nil when they are.
    private let order: [Int]?
    private var cursor = 0
    private var streams: [ScriptGenerator.Stream] = []
    private var heads: [Pending?] = []
    private var nextSequences: [UInt64] = []
    /// The earliest occurrence not yet taken.
    private(set) var front: Pending?
    /// Where `front` comes from: -1 the script, otherwise a stream.
    private var frontSource = -1
    /// How many sequence numbers the script and its expansion use (the first free one follows).
    let count: UInt64

    init(workload: Workload, firstSequence: UInt64) {
        let script = workload.script
        self.script = script
        let inOrder = zip(script, script.dropFirst()).allSatisfy { $0.atUs <= $1.atUs }
        order = inOrder ? nil : script.indices.sorted { (script[$0].atUs, $0) < (script[$1].atUs, $1) }
        scriptSequence = firstSequence
        var total = UInt64(script.count)
        if let generate = workload.generate {
            var generator = SeededGenerator(seed: workload.seed)
            let expansion = ScriptGenerator.streams(for: generate, durationUs: workload.durationUs, generator: &generator)
            streams = [expansion.opens, expansion.homes] + expansion.sessions.map(\.stream)
            nextSequences = [firstSequence + total, firstSequence + total + UInt64(expansion.openCount)]
            total += UInt64(expansion.openCount + expansion.homeCount)
            for s in expansion.sessions {
                nextSequences.append(firstSequence + total)
                total += UInt64(s.count)
            }
            heads = Array(repeating: nil, count: streams.count)
        }
        count = total
        for k in streams.indices { advance(stream: k) }
        findFront()
    }

    private let scriptSequence: UInt64

    private var scriptHead: Pending? {
        guard cursor < script.count else { return nil }
        let index = order?[cursor] ?? cursor
        return Pending(atUs: script[index].atUs, sequence: scriptSequence + UInt64(index),
                       what: .script(script[index].action))
    }

    private mutating func advance(stream k: Int) {
        heads[k] = streams[k].next().map { entry in
            defer { nextSequences[k] += 1 }
            return Pending(atUs: entry.atUs, sequence: nextSequences[k], what: .script(entry.action))
        }
    }

    /// Sets `front` to the earliest of the script's and the streams' heads, and `frontSource`.
    /// A generated switch or home that falls inside an app's session is dropped: the user is
    /// in that app until the session's own home.
    private mutating func findFront() {
        while true {
            var best = scriptHead.map { ($0, -1) }
            for k in heads.indices {
                if let head = heads[k], best.map({ head < $0.0 }) ?? true { best = (head, k) }
            }
            if let (head, k) = best, k == 0 || k == 1, inSession(at: head.atUs) {
                advance(stream: k)
                continue
            }
            front = best?.0
            frontSource = best?.1 ?? -1
            return
        }
    }

    /// Whether a session stream is between its open and its home at `time`: its next entry is
    /// the home that ends a session (a session stream gives an open, then its home).
    private func inSession(at time: Microseconds) -> Bool {
        heads.indices.dropFirst(2).contains { k in
            guard let head = heads[k], case .script(.home) = head.what else { return false }
            return head.atUs > time
        }
    }

    /// Takes `front`.
    mutating func pop() {
        guard front != nil else { return }
        if frontSource < 0 { cursor += 1 } else { advance(stream: frontSource) }
        findFront()
    }
}
