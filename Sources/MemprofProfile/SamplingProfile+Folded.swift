extension SamplingProfile {
    /// The profile as folded stacks, the input of FlameGraph's `flamegraph.pl` and of most
    /// flame-graph tools: one line per distinct stack, frames root first joined by `;`, a space,
    /// and the integer sample count, e.g. `main;work;crc32Update 12`.
    ///
    /// With `rootedAtHandler` (the default) every stack starts with two extra frames, the app and
    /// the handler, so one file shows all handlers side by side. Lines are sorted, as
    /// `stackcollapse` tools sort them. Names are cleaned so each line parses the way
    /// `flamegraph.pl` reads it (`^(.*)\s+?(\d+(?:\.\d*)?)$`): `;`, tabs and line breaks are
    /// removed from names, an empty name becomes `[unknown]`, and a stack that would itself end
    /// in a space and a number (which `flamegraph.pl` would take for a second count column)
    /// gets that space replaced by `_`.
    ///
    /// - Returns: The file's text, ending with a newline; empty when there are no samples.
    public func makeFoldedStacks(rootedAtHandler: Bool = true) -> String {
        folded(rootedAtHandler: rootedAtHandler) { handler in
            handler.stacks.map { ($0.frames, Int64($0.count)) }
        }
    }

    /// The allocations of programs as folded stacks, one line per stack with its `metric`
    /// (bytes or blocks) as the count, in the same form as ``makeFoldedStacks(rootedAtHandler:)``.
    public func makeFoldedStacks(of metric: AllocationMetric, rootedAtHandler: Bool = true) -> String {
        folded(rootedAtHandler: rootedAtHandler) { handler in
            (handler.allocations?.stacks ?? []).map { ($0.frames, metric.value(of: $0)) }
        }
    }

    private func folded(rootedAtHandler: Bool, _ stacksOf: (HandlerProfile) -> [(frames: [Int], value: Int64)]) -> String {
        var lines: [String] = []
        for handler in handlers {
            let roots = rootedAtHandler ? [handler.app, handler.handler] : []
            var merged: [String: Int64] = [:]
            for stack in stacksOf(handler) where stack.value > 0 {
                let names = roots + stack.frames.map { frames[$0].name }
                merged[Self.foldedStack(names), default: 0] &+= stack.value
            }
            lines += merged.map { "\($0.key) \($0.value)" }
        }
        lines.sort()
        return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
    }

    /// Cleans one frame name for a folded line.
    static func foldedName(_ name: String) -> String {
        var cleaned = ""
        cleaned.reserveCapacity(name.utf8.count)
        for character in name.unicodeScalars {
            switch character {
            case ";": continue
            case "\n", "\r", "\t": cleaned.unicodeScalars.append(" ")
            default: cleaned.unicodeScalars.append(character)
            }
        }
        let trimmed = cleaned.trimmingSpaces()
        return trimmed.isEmpty ? "[unknown]" : trimmed
    }

    static func foldedStack(_ names: [String]) -> String {
        var stack = names.map(foldedName).joined(separator: ";")
        // A stack ending in whitespace + number would be read as a differential second column.
        let scalars = Array(stack.unicodeScalars)
        var end = scalars.count
        while end > 0, ("0"..."9").contains(scalars[end - 1]) || scalars[end - 1] == "." { end -= 1 }
        if end < scalars.count, end > 0, scalars[end - 1] == " " {
            var fixed = String.UnicodeScalarView(scalars[..<(end - 1)])
            fixed.append("_")
            fixed.append(contentsOf: scalars[end...])
            stack = String(fixed)
        }
        return stack
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " }),
            let last = scalars.lastIndex(where: { $0 != " " })
        else { return "" }
        return String(scalars[first...last])
    }
}
