/// Expands `generate` (spec §9) into script entries, repeatably for a seed.
///
/// Gaps between actions are drawn uniformly between half and one and a half times the mean, in
/// whole microseconds, so the expansion uses no floating point and is the same everywhere.
public enum ScriptGenerator {
    public static func entries(for spec: GenerateSpec, durationUs: Microseconds,
                               generator: inout SeededGenerator) -> [ScriptEntry] {
        var result: [ScriptEntry] = []
        let totalWeight = spec.weights.reduce(0) { $0 + $1.weight }
        if totalWeight > 0, spec.switchEveryUs > 0 {
            var t: Microseconds = 0
            while true {
                t += gap(mean: spec.switchEveryUs, &generator)
                if t > durationUs { break }
                var pick = generator.int64(in: 0...Int64(totalWeight - 1))
                for w in spec.weights {
                    if pick < Int64(w.weight) {
                        result.append(ScriptEntry(atUs: t, action: .open(w.app)))
                        break
                    }
                    pick -= Int64(w.weight)
                }
            }
        }
        if let home = spec.homeEveryUs, home > 0 {
            var t: Microseconds = 0
            while true {
                t += gap(mean: home, &generator)
                if t > durationUs { break }
                result.append(ScriptEntry(atUs: t, action: .home))
            }
        }
        return result
    }

    private static func gap(mean: Microseconds, _ generator: inout SeededGenerator) -> Microseconds {
        let low = max(1, mean / 2)
        return generator.int64(in: low...(mean + mean / 2))
    }
}
