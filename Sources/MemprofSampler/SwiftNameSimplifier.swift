/// Shortens demangled Swift names the way `swift demangle --simplified` does, so stacks stay
/// readable: parameter lists become their labels, result types and closure signatures go, and
/// private discriminators are dropped.
///
///     MemprofSampler.ChecksumKernel.crc32Update(Swift.UInt32, Swift.UnsafeBufferPointer<Swift.UInt8>) -> Swift.UInt32
///     MemprofSampler.ChecksumKernel.crc32Update(_:_:)
///
///     closure #1 @Sendable () -> () in MemprofSampler.WorkerThread.(loop in _B659…)() -> ()
///     closure #1 in MemprofSampler.WorkerThread.loop()
///
/// Names it cannot parse (unbalanced brackets) come back unchanged.
enum SwiftNameSimplifier {
    static func simplify(_ name: String) -> String {
        var name = name
        for prefix in ["function signature specialization <", "generic specialization <"] {
            while let start = name.range(of: prefix),
                let end = name[start.upperBound...].range(of: "> of ")
            {
                name.replaceSubrange(start.lowerBound..<end.upperBound, with: "specialized ")
            }
        }
        let characters = Array(name)
        var output = ""
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "<", index > 0, isNameCharacter(characters[index - 1]) {
                // A generic parameter clause: keep the parameters, drop the requirements.
                guard let close = closingAngle(characters, from: index) else { return name }
                let inner = String(characters[(index + 1)..<close])
                let parameters = inner.components(separatedBy: " where ")[0]
                if !parameters.isEmpty { output += "<" + parameters + ">" }
                index = close + 1
            } else if character == "(" {
                guard let close = closingIndex(characters, from: index) else { return name }
                let inner = String(characters[(index + 1)..<close])
                let previous = index > 0 ? characters[index - 1] : " "
                if let privateName = privateDeclarationName(inner) {
                    output += privateName
                    index = close + 1
                } else if isNameCharacter(previous) || previous == ")" || previous == "."
                    || (previous == ">" && index > 1 && characters[index - 2] != "-")
                {
                    output += "(" + labels(of: inner, in: characters, from: index + 1) + ")"
                    index = skipEffectsAndResult(characters, from: close + 1)
                } else if previous == " " && !inner.hasPrefix("extension in ") {
                    // A closure's or function's type, as in "closure #1 @Sendable () -> () in".
                    while output.hasSuffix(" ") { output.removeLast() }
                    while let at = output.range(of: " @", options: .backwards),
                        !output[at.upperBound...].contains(" ")
                    {
                        output.removeSubrange(at.lowerBound...)
                    }
                    index = skipEffectsAndResult(characters, from: close + 1)
                } else {
                    output += String(characters[index...close])
                    index = close + 1
                }
            } else {
                output.append(character)
                index += 1
            }
        }
        return output
    }

    private static func isNameCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_" || character == "`"
    }

    private static func closingAngle(_ characters: [Character], from open: Int) -> Int? {
        var depth = 0
        var index = open
        while index < characters.count {
            switch characters[index] {
            case "<": depth += 1
            case ">" where characters[index - 1] != "-":
                depth -= 1
                if depth == 0 { return index }
            default: break
            }
            index += 1
        }
        return nil
    }

    /// `loop in _B65945233999E0652AB21851E49AAA0F` → `loop`.
    private static func privateDeclarationName(_ inner: String) -> String? {
        guard let range = inner.range(of: " in _", options: .backwards) else { return nil }
        let discriminator = inner[range.upperBound...]
        guard discriminator.count >= 8, discriminator.allSatisfy({ $0.isHexDigit }) else { return nil }
        return String(inner[..<range.lowerBound])
    }

    /// `bytes: Swift.Int64, Swift.Bool` → `bytes:_:`.
    private static func labels(of inner: String, in characters: [Character], from start: Int) -> String {
        let parameters = splitTopLevel(Array(inner))
        if parameters.count == 1 && parameters[0].allSatisfy({ $0 == " " }) { return "" }
        return parameters.map { parameter -> String in
            let text = parameter.drop { $0 == " " }
            if let colon = text.firstIndex(of: ":"),
                text[text.index(after: colon)...].first == " ",
                text[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }),
                !text[..<colon].isEmpty
            {
                return String(text[..<colon]) + ":"
            }
            return "_:"
        }.joined()
    }

    private static func splitTopLevel(_ characters: [Character]) -> [String] {
        var parts: [String] = []
        var current = ""
        var depth = 0
        for (offset, character) in characters.enumerated() {
            switch character {
            case "(", "[", "<": depth += 1
            case ")", "]": depth -= 1
            case ">" where offset == 0 || characters[offset - 1] != "-": depth -= 1
            case "," where depth == 0:
                parts.append(current)
                current = ""
                continue
            default: break
            }
            current.append(character)
        }
        parts.append(current)
        return parts
    }

    /// Skips ` async`, ` throws`, ` rethrows` and ` -> Result` up to a top-level ` in ` or the end.
    private static func skipEffectsAndResult(_ characters: [Character], from start: Int) -> Int {
        var index = start
        func hasPrefix(_ text: String, at position: Int) -> Bool {
            let probe = Array(text)
            guard position + probe.count <= characters.count else { return false }
            return Array(characters[position..<(position + probe.count)]) == probe
        }
        while true {
            if hasPrefix(" async", at: index) { index += 6 }
            else if hasPrefix(" throws", at: index) { index += 7 }
            else if hasPrefix(" rethrows", at: index) { index += 9 }
            else { break }
        }
        guard hasPrefix(" ->", at: index) else { return index }
        index += 3
        var depth = 0
        while index < characters.count {
            let character = characters[index]
            if depth == 0 && hasPrefix(" in ", at: index) { return index }
            switch character {
            case "(", "[", "<": depth += 1
            case ")", "]": depth -= 1
            case ">" where characters[index - 1] != "-": depth -= 1
            default: break
            }
            if depth < 0 { return index }
            index += 1
        }
        return index
    }

    private static func closingIndex(_ characters: [Character], from open: Int) -> Int? {
        var depth = 0
        var index = open
        while index < characters.count {
            switch characters[index] {
            case "(", "[": depth += 1
            case ")", "]":
                depth -= 1
                if depth == 0 { return index }
            default: break
            }
            index += 1
        }
        return nil
    }
}
