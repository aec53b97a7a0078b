/// One box of a differential flame graph: laid out by the new run's samples, with the share of
/// all samples its stack prefix took in each run.
public struct DiffFlameBox: Sendable, Hashable {
    public var name: String
    public var depth: Int
    /// New-run samples before this box on its row.
    public var start: Int
    /// New-run samples in this frame and below it.
    public var count: Int
    /// Share of all new-run samples in this frame and below (0...1).
    public var newShare: Double
    /// Share of all base-run samples on the same stack prefix (0 when the base never had it).
    public var baseShare: Double

    /// Positive when the frame took a larger share of the samples in the new run.
    public var delta: Double { newShare - baseShare }
}

/// Lays out a differential flame graph (as Brendan Gregg's difffolded: shape from the new
/// profile, colour from the change against the base), from stacks given root first.
public enum DiffFlameLayout {
    public static func boxes(base: [(frames: [String], count: Int)], new: [(frames: [String], count: Int)],
                             minCount: Int = 1) -> [DiffFlameBox] {
        final class Node {
            var children: [String: Node] = [:]
            var base = 0
            var new = 0
        }
        let root = Node()
        func add(_ stacks: [(frames: [String], count: Int)], isNew: Bool) {
            for stack in stacks where stack.count > 0 {
                var node = root
                if isNew { root.new += stack.count } else { root.base += stack.count }
                for frame in stack.frames {
                    let child = node.children[frame] ?? Node()
                    node.children[frame] = child
                    if isNew { child.new += stack.count } else { child.base += stack.count }
                    node = child
                }
            }
        }
        add(base, isNew: false)
        add(new, isNew: true)
        let baseTotal = Double(max(1, root.base)), newTotal = Double(max(1, root.new))
        var out: [DiffFlameBox] = []
        func visit(_ node: Node, depth: Int, start: Int) {
            var offset = start
            for name in node.children.keys.sorted() {
                let child = node.children[name]!
                guard child.new > 0 else { continue }
                if child.new >= minCount {
                    out.append(DiffFlameBox(name: name, depth: depth, start: offset, count: child.new,
                                            newShare: Double(child.new) / newTotal,
                                            baseShare: Double(child.base) / baseTotal))
                    visit(child, depth: depth + 1, start: offset)
                }
                offset += child.new
            }
        }
        visit(root, depth: 0, start: 0)
        return out
    }
}
