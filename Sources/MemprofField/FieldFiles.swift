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
