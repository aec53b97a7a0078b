import MemprofInput
import Foundation
import MemprofOutput
import MemprofWorkload

/// Field files read from disk: a report `memprof import` reads, and the payloads of the files and
/// folders `memprof field` is given.
public enum FieldFiles {
    public static let maxFiles = 100_000

    /// Each file read whole (one payload or an array), each folder's `.json` files in name
    /// order (not its subfolders). Bounded: at most ``maxFiles`` files and
    /// ``MetricKitPayloadReader/maxPayloads`` payloads in all.
    public static func metricKitPayloads(_ paths: [String]) throws -> (files: Int, payloads: [MetricKitPayload]) {
        var files: [String] = []
        for path in paths {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
                let names: [String]
                do { names = try FileManager.default.contentsOfDirectory(atPath: path) } catch {
                    throw BadInput("\(path): the folder cannot be read (\(error.localizedDescription))")
                }
                let found = names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted()
                guard !found.isEmpty else { throw BadInput("\(path): no .json files in this folder; MetricKit payloads are JSON") }
                files += found.map { URL(fileURLWithPath: path).appendingPathComponent($0).path }
            } else {
                files.append(path)
            }
            guard files.count <= maxFiles else { throw BadInput("more than \(maxFiles) files; give fewer at a time") }
        }
        var payloads: [MetricKitPayload] = []
        for file in files {
            let bytes = try read(file, maxBytes: MetricKitPayloadReader.maxBytes, farSmaller: "MetricKit payloads are")
            payloads += try MetricKitPayloadReader(file: file).read(bytes)
            guard payloads.count <= MetricKitPayloadReader.maxPayloads else {
                throw IPSError(file: file, line: 0, column: 0, keyPath: "",
                               message: "more than \(MetricKitPayloadReader.maxPayloads) payloads in all; give fewer at a time")
            }
        }
        return (files.count, payloads)
    }

    /// The field `memprof calibrate` is given: one field.json (`memprof.field/1`, as
    /// `memprof field -o` writes it), or payload files and folders as ``metricKitPayloads(_:)``
    /// reads them. A field.json among other paths is refused: the summary and the payloads
    /// would count the same days twice, or days of different sources.
    public static func field(_ paths: [String]) throws -> Either {
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            let bytes = try read(path, maxBytes: MetricKitPayloadReader.maxBytes, farSmaller: "MetricKit payloads and field.json are")
            guard FieldSummaryReader.isFieldSummary(bytes) else { continue }
            guard paths.count == 1 else {
                throw BadInput("\(path) is a field.json (\(FieldSummary.schema)); give it alone, or the payloads instead, not both")
            }
            return .summary(try FieldSummaryReader(file: path).read(bytes))
        }
        return .payloads(try metricKitPayloads(paths).payloads)
    }

    /// A field as ``field(_:)`` read it.
    public enum Either: Sendable {
        case payloads([MetricKitPayload])
        case summary(FieldSummary)
    }

    /// The bytes of a field file, at most `maxBytes`: a larger one is refused as located input
    /// (exit 2, "… is larger than N MB; `farSmaller` far smaller"), any other refusal named.
    public static func read(_ file: String, maxBytes: Int, farSmaller: String) throws -> [UInt8] {
        switch InputFile.read(file, maxBytes: maxBytes) {
        case .success(let read): return read
        case .failure(.tooLarge):
            throw IPSError(file: file, line: 0, column: 0, keyPath: "",
                           message: "the file is larger than \(maxBytes >> 20) MB; \(farSmaller) far smaller")
        case .failure(let refusal): throw BadInput("\(file): \(refusal.message)")
        }
    }
}
