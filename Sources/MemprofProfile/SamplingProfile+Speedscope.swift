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
                    unit: "none", startValue: 0, endValue: total,
                    samples: handler.stacks.map(\.frames), weights: handler.stacks.map(\.count))
            },
            name: name, activeProfileIndex: 0, exporter: "memprof")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(file)
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
        var startValue: Int
        var endValue: Int
        var samples: [[Int]]
        var weights: [Int]
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
