import MemprofOutput

/// A problem with a workload, located at the file, line, column and key path that caused it:
/// bad input, exit status 2.
///
/// Its description is the line users see:
/// `commute.yaml:14:7: apps.mail.launch: unknown key 'footprnt' (did you mean 'footprint'?)`
public struct WorkloadError: MemprofError, Equatable, Sendable {
    public var exitStatus: Int32 { ExitStatus.badInput }

    public var file: String
    /// 1-based; 0 when the problem has no place in the file (for example an empty file).
    public var line: Int
    public var column: Int
    /// Dotted key path, for example `apps.mail.launch`; script entries are `script[3]`.
    public var keyPath: String
    public var message: String

    public init(file: String, line: Int, column: Int, keyPath: String, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.keyPath = keyPath
        self.message = message
    }

    public var description: String {
        let place = line > 0 ? "\(file):\(line):\(column)" : file
        return keyPath.isEmpty ? "\(place): \(message)" : "\(place): \(keyPath): \(message)"
    }
}

/// A place in an input file: where a value was read, so that a problem found later (an app a
/// report does not have, a pattern that matches nothing) can still be reported at it.
public struct InputPlace: Sendable, Equatable {
    public var file: String
    public var line: Int
    public var column: Int
    public var keyPath: String

    public init(file: String, line: Int, column: Int, keyPath: String) {
        self.file = file
        self.line = line
        self.column = column
        self.keyPath = keyPath
    }

    public func error(_ message: String) -> WorkloadError {
        WorkloadError(file: file, line: line, column: column, keyPath: keyPath, message: message)
    }
}

/// `message` with " (did you mean 'x'?)" when one of `candidates` is close to `word`.
public func withSuggestion(_ message: String, for word: String, among candidates: [String]) -> String {
    guard let near = suggestion(for: word, among: candidates), near != word else { return message }
    return message + " (did you mean '\(near)'?)"
}

/// The closest candidate to a misspelt word, if one is close enough to be what was meant.
public func suggestion(for word: String, among candidates: [String]) -> String? {
    let lowered = word.lowercased()
    var best: (String, Int)?
    for candidate in candidates {
        let d = editDistance(lowered, candidate.lowercased())
        if d < (best?.1 ?? Int.max) { best = (candidate, d) }
    }
    guard let (candidate, distance) = best else { return nil }
    return distance <= max(2, candidate.count / 3) ? candidate : nil
}

/// Levenshtein distance between two strings, by characters.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = Array(repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}
