import Foundation

/// Snapshot comparison of JSON documents, for reports held against their committed baselines.
public enum Snapshot {
    /// fleet.json's text in folder `dir` with its `host` object cut out (the wall-clock facts,
    /// which differ between sweeps of the same result); keys are sorted, so `host` comes just
    /// before `runsFile`.
    public static func fleetJSONWithoutHost(in dir: URL) throws -> String {
        let text = try String(contentsOf: dir.appendingPathComponent("fleet.json"), encoding: .utf8)
        guard let start = text.range(of: ",\"host\":{"),
              let end = text.range(of: "},\"runsFile\":", range: start.upperBound..<text.endIndex) else { return text }
        return String(text[..<start.lowerBound]) + String(text[end.lowerBound...].dropFirst())
    }

    /// The first difference between two JSON documents, ignoring the top-level keys in
    /// `ignoring` (by default the parts of a report that are measured, not simulated: `host`
    /// and `profile`, spec §10); nil when they are the same.
    ///
    /// - Returns: a sentence naming the key path that differs and both values, or nil.
    public static func difference(_ actual: Data, _ expected: Data, ignoring: Set<String> = ["host", "profile"]) throws -> String? {
        guard var a = try JSONSerialization.jsonObject(with: actual) as? [String: Any],
              var e = try JSONSerialization.jsonObject(with: expected) as? [String: Any] else {
            return "one of the documents is not a JSON object"
        }
        for key in ignoring {
            a[key] = nil
            e[key] = nil
        }
        return firstDifference(a, e, path: "")
    }

    private static func firstDifference(_ a: Any, _ e: Any, path: String) -> String? {
        switch (a, e) {
        case (let a as [String: Any], let e as [String: Any]):
            for key in Set(a.keys).union(e.keys).sorted() {
                let sub = path.isEmpty ? key : "\(path).\(key)"
                guard let av = a[key] else { return "\(sub): missing, expected \(e[key]!)" }
                guard let ev = e[key] else { return "\(sub): unexpected \(av)" }
                if let d = firstDifference(av, ev, path: sub) { return d }
            }
            return nil
        case (let a as [Any], let e as [Any]):
            for (i, (av, ev)) in zip(a, e).enumerated() {
                if let d = firstDifference(av, ev, path: "\(path)[\(i)]") { return d }
            }
            return a.count == e.count ? nil : "\(path): \(a.count) elements, expected \(e.count)"
        default:
            return (a as? NSObject) == (e as? NSObject) ? nil : "\(path): \(a), expected \(e)"
        }
    }
}
