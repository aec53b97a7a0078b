import MemprofReportReader
import Foundation
import MemprofReport

/// A report's metrics in the JSON that github-action-benchmark reads with
/// `tool: customSmallerIsBetter`: an array of `{"name", "unit", "value"}`, one per metric for
/// which a rise is a regression (evictions, kills, peak bytes, time under pressure, resume
/// latency), so a team can chart them commit by commit and be alerted on a rise.
///
/// Metrics that are better when higher (handlers completed) or neutral are left out: the
/// format has one direction per file. Names are `<workload> <metric path>`, units `count`,
/// `bytes` or `us`; entries are sorted by name, so the file is deterministic.
public enum BenchmarkJSON {
    public struct Entry: Codable, Equatable, Sendable {
        public var name: String
        public var unit: String
        public var value: Double
    }

    /// The entries of `report`.
    public static func entries(of report: Report) -> [Entry] {
        MetricExtractor.metrics(of: report)
            .filter { MetricDirections.direction(of: MetricPath($0.key).relative) == .higherIsWorse }
            .map { path, value in
                let unit = switch MetricKind.of(path) {
                case .count: "count"
                case .bytes: "bytes"
                case .duration: "us"
                }
                return Entry(name: "\(report.run.workload) \(path)", unit: unit, value: value)
            }
            .sorted { $0.name < $1.name }
    }

    /// The JSON file, one entry per line.
    public static func encode(_ report: Report) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let lines = try entries(of: report).map { String(decoding: try encoder.encode($0), as: UTF8.self) }
        return Data(("[\n" + lines.map { "  " + $0 }.joined(separator: ",\n") + "\n]\n").utf8)
    }
}
