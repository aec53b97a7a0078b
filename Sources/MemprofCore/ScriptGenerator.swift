/// Expands `generate` (spec §9) into script entries, repeatably for a seed.
///
/// Gaps between actions are drawn uniformly between half and one and a half times the mean, in
/// whole microseconds, so the expansion uses no floating point and is the same everywhere.
///
/// The expansion is two streams, each in time order: the switches (`open`s), then the `home`s,
/// which draw from the generator where the switches left it. A run reads them as it goes
/// (``streams(for:durationUs:generator:)``), so its memory does not grow with their number.
public enum ScriptGenerator {
    public static func entries(for spec: GenerateSpec, durationUs: Microseconds,
                               generator: inout SeededGenerator) -> [ScriptEntry] {
        var streams = Self.streams(for: spec, durationUs: durationUs, generator: &generator)
        var result: [ScriptEntry] = []
        while let entry = streams.opens.next() { result.append(entry) }
        while let entry = streams.homes.next() { result.append(entry) }
        for var stream in streams.sessions.map(\.stream) {
            while let entry = stream.next() { result.append(entry) }
        }
        return result
    }

    /// The switches, the homes and each app's sessions of `spec`, each a stream in time order,
    /// with how many each holds; `generator` is left where the whole expansion leaves it.
    public static func streams(for spec: GenerateSpec, durationUs: Microseconds, generator: inout SeededGenerator)
        -> (opens: Stream, homes: Stream, openCount: Int, homeCount: Int, sessions: [(stream: Stream, count: Int)]) {
        let opens = Stream(spec: spec, durationUs: durationUs, homes: false, generator: generator)
        // The homes start where the switches leave the generator: run them through once.
        var pass = opens, openCount = 0
        while pass.next() != nil { openCount += 1 }
        let homes = Stream(spec: spec, durationUs: durationUs, homes: true, generator: pass.generator)
        var homePass = homes, homeCount = 0
        while homePass.next() != nil { homeCount += 1 }
        generator = homePass.generator
        // Each app's sessions start where the stream before leaves the generator.
        var sessions: [(stream: Stream, count: Int)] = []
        for s in spec.sessions {
            let stream = Stream(sessions: s, durationUs: durationUs, generator: generator)
            var sessionPass = stream, count = 0
            while sessionPass.next() != nil { count += 1 }
            generator = sessionPass.generator
            sessions.append((stream, count))
        }
        return (opens, homes, openCount, homeCount, sessions)
    }

    /// One stream of the expansion: the switches, the homes, or one app's sessions, in time order.
    public struct Stream: IteratorProtocol, Sendable {
        let weights: [(app: Int, weight: Int)]
        let totalWeight: Int
        let meanUs: Microseconds
        let durationUs: Microseconds
        let homes: Bool
        /// For an app's sessions: the app and a session's mean length (``meanUs`` is then the
        /// mean gap from one session's end to the next one's start).
        let session: (app: Int, lengthUs: Microseconds)?
        /// The home that ends the session under way.
        var sessionEnd: Microseconds?
        fileprivate(set) var generator: SeededGenerator
        var t: Microseconds = 0
        var done: Bool

        init(spec: GenerateSpec, durationUs: Microseconds, homes: Bool, generator: SeededGenerator) {
            weights = spec.weights
            totalWeight = spec.weights.reduce(0) { $0 + $1.weight }
            meanUs = homes ? spec.homeEveryUs ?? 0 : spec.switchEveryUs
            self.durationUs = durationUs
            self.homes = homes
            session = nil
            self.generator = generator
            done = meanUs <= 0 || (!homes && totalWeight <= 0)
        }

        /// Sessions that start on average every `durationUs` ÷ perDay: the gap after a session
        /// has the mean of that cycle less the session's mean length.
        init(sessions s: GenerateSpec.Sessions, durationUs: Microseconds, generator: SeededGenerator) {
            weights = []
            totalWeight = 0
            meanUs = s.meanGapUs(durationUs: durationUs)
            self.durationUs = durationUs
            homes = false
            session = (s.app, s.lengthUs)
            self.generator = generator
            done = meanUs <= 0 || s.lengthUs <= 0
        }

        public mutating func next() -> ScriptEntry? {
            if let session {
                if let end = sessionEnd {
                    sessionEnd = nil
                    t = end
                    return ScriptEntry(atUs: end, action: .home)
                }
                guard !done else { return nil }
                t += ScriptGenerator.gap(mean: meanUs, &generator)
                let length = ScriptGenerator.gap(mean: session.lengthUs, &generator)
                guard t <= durationUs else {
                    done = true
                    return nil
                }
                if t + length <= durationUs { sessionEnd = t + length } else { done = true }
                return ScriptEntry(atUs: t, action: .open(session.app))
            }
            while !done {
                t += ScriptGenerator.gap(mean: meanUs, &generator)
                if t > durationUs {
                    done = true
                    return nil
                }
                if homes { return ScriptEntry(atUs: t, action: .home) }
                var pick = generator.int64(in: 0...Int64(totalWeight - 1))
                for w in weights {
                    if pick < Int64(w.weight) { return ScriptEntry(atUs: t, action: .open(w.app)) }
                    pick -= Int64(w.weight)
                }
            }
            return nil
        }
    }

    fileprivate static func gap(mean: Microseconds, _ generator: inout SeededGenerator) -> Microseconds {
        let low = max(1, mean / 2)
        return generator.int64(in: low...(mean + mean / 2))
    }
}
