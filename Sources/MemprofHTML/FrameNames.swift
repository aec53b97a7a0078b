/// How flame graphs name and sort frames: the short names the README promises
/// (`ChecksumKernel.crc32Update(_:_:)`, not `static MemprofSampler.ChecksumKernel.crc32Update(_:_:)`),
/// and which frames are memprof's own machinery rather than the work being profiled.
public enum FrameNames {
    /// A frame's name as a flame graph shows it: module qualifiers of Swift, Foundation and
    /// memprof's own modules dropped, `static `, `(extension in M):`, the type of a variable
    /// initializer and generic specialization prefixes removed.
    public static func short(_ name: String) -> String {
        var s = name
        for prefix in ["generic partial specialization ", "generic specialization ", "function signature specialization "] {
            if let start = s.range(of: prefix), let end = s[start.upperBound...].range(of: "> of ") {
                s.replaceSubrange(start.lowerBound..<end.upperBound, with: "specialized ")
            }
        }
        s = s.replacingOccurrences(of: "variable initialization expression of ", with: "")
        if let colon = s.range(of: " : ", options: .backwards) { s = String(s[..<colon.lowerBound]) }
        s = s.replacingOccurrences(of: "static ", with: "")
        while let start = s.range(of: "(extension in "), let end = s[start.upperBound...].range(of: "):") {
            s.removeSubrange(start.lowerBound..<end.upperBound)
        }
        // Module qualifiers: `Swift.`, `Foundation.`, `_Concurrency.` and `Memprof…` at the start of a name.
        var out = ""
        var index = s.startIndex
        while index < s.endIndex {
            let atWordStart = index == s.startIndex || !isNameCharacter(s[s.index(before: index)])
            if atWordStart, let dot = qualifierEnd(s, from: index) {
                index = dot
                continue
            }
            out.append(s[index])
            index = s.index(after: index)
        }
        return out
    }

    static let modules: Set<String> = ["Swift", "Foundation", "_Concurrency", "Dispatch", "FoundationEssentials"]

    /// The index after `Module.` when a known module name starts at `from`.
    static func qualifierEnd(_ s: String, from: String.Index) -> String.Index? {
        var end = from
        while end < s.endIndex, isNameCharacter(s[end]) { end = s.index(after: end) }
        guard end < s.endIndex, s[end] == ".", end > from else { return nil }
        let word = String(s[from..<end])
        guard modules.contains(word) || word.hasPrefix("Memprof") else { return nil }
        return s.index(after: end)
    }

    static func isNameCharacter(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" }

    /// Compiler thunks that carry no meaning of their own: partial-apply forwarders, protocol
    /// witnesses, reabstraction thunks, merged functions; hidden by default (their samples go to
    /// their caller).
    public static func isThunk(_ name: String) -> Bool {
        name.hasPrefix("partial apply forwarder") || name.contains("protocol witness")
            || name.hasPrefix("reabstraction thunk") || name.hasPrefix("merged ")
            || name.hasPrefix("thunk for") || name.hasPrefix("dispatch thunk")
    }
}
