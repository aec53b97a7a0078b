import struct Foundation.Data
import class Foundation.JSONEncoder

extension SamplingProfile {
    /// The `$schema` value speedscope looks for to recognise its own format.
    public static let speedscopeSchema = "https://www.speedscope.app/file-format-schema.json"

    /// The profile as a speedscope file (speedscope's own JSON format, see its
    /// `file-format-schema.json`): all frames in `shared.frames` (name, and the module as
    /// `file`), and one `sampled` profile per (app, handler) named `app · handler (kernel)`,
    /// whose `samples` are frame-index stacks root first and whose `weights` are sample counts
    /// (unit `none`).
    ///
    /// - Parameter name: The file's title in speedscope.
    /// - Returns: UTF-8 JSON with sorted keys.
    public func makeSpeedscopeJSON(name: String = "memprof") throws -> Data {
        let file = SpeedscopeFile(
            schema: Self.speedscopeSchema,
            shared: .init(frames: frames.map { .init(name: $0.name, file: $0.module) }),
            profiles: handlers.map { handler in
                let total = handler.stacks.reduce(0) { $0 + $1.count }
                return .init(
                    type: "sampled", name: "\(handler.app) · \(handler.handler) (\(handler.kernel))",
                    unit: "none", startValue: 0, endValue: Int64(total),
                    samples: handler.stacks.map(\.frames), weights: handler.stacks.map { Int64($0.count) })
            } + allocationProfiles(),
            name: name, activeProfileIndex: 0, exporter: "memprof")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(file)
    }
}

extension SamplingProfile {
    /// One speedscope profile per (app, handler) with tracked allocations and per metric, weighed
    /// in bytes (or blocks, unit `none`).
    fileprivate func allocationProfiles() -> [SpeedscopeFile.Profile] {
        handlers.flatMap { handler -> [SpeedscopeFile.Profile] in
            guard let allocations = handler.allocations else { return [] }
            return AllocationMetric.allCases.compactMap { metric in
                let stacks = allocations.stacks.filter { metric.value(of: $0) > 0 }
                guard !stacks.isEmpty else { return nil }
                let weights = stacks.map { metric.value(of: $0) }
                return .init(
                    type: "sampled", name: "\(handler.app) · \(handler.handler) (\(handler.kernel)) · \(metric.title)",
                    unit: metric.unitIsBytes ? "bytes" : "none", startValue: 0, endValue: weights.reduce(0, &+),
                    samples: stacks.map(\.frames), weights: weights)
            }
        }
    }
}

private struct SpeedscopeFile: Encodable {
    struct Shared: Encodable { var frames: [SpeedscopeFrame] }
    struct SpeedscopeFrame: Encodable {
        var name: String
        var file: String
    }
    struct Profile: Encodable {
        var type: String
        var name: String
        var unit: String
        var startValue: Int64
        var endValue: Int64
        var samples: [[Int]]
        var weights: [Int64]
    }

    var schema: String
    var shared: Shared
    var profiles: [Profile]
    var name: String
    var activeProfileIndex: Int
    var exporter: String

    enum CodingKeys: String, CodingKey {
        case schema = "$schema"
        case shared, profiles, name, activeProfileIndex, exporter
    }
}
