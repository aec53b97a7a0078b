import MemprofProfile

/// One box of a flame graph: a frame at a depth, spanning `count` samples from `start`.
public struct FlameBox: Sendable, Hashable {
    public var name: String
    public var depth: Int
    /// Samples before this box on its row (the x position, in samples).
    public var start: Int
    /// Samples in this frame and below it (the width, in samples).
    public var count: Int
    /// Samples in this frame itself (not in a callee).
    public var selfCount: Int
}

/// Lays out a flame graph from stacks (root first) and their sample counts.
public enum FlameLayout {
    /// Boxes in depth-first order: siblings sorted by name (so equal stacks merge and the layout is
    /// deterministic), each child starting where its previous sibling ended, inside its parent.
    /// Boxes narrower than `minCount` samples are left out (their samples still count in the parent).
    public static func boxes(_ stacks: [(frames: [String], count: Int)], minCount: Int = 1) -> [FlameBox] {
        final class Node {
            var children: [String: Node] = [:]
            var count = 0
            var selfCount = 0
        }
        let root = Node()
        for stack in stacks where stack.count > 0 {
            root.count += stack.count
            var node = root
            for frame in stack.frames {
                let child = node.children[frame] ?? Node()
                node.children[frame] = child
                child.count += stack.count
                node = child
            }
            node.selfCount += stack.count
        }
        var out: [FlameBox] = []
        func visit(_ node: Node, depth: Int, start: Int) {
            var offset = start
            for name in node.children.keys.sorted() {
                let child = node.children[name]!
                if child.count >= minCount {
                    out.append(FlameBox(name: name, depth: depth, start: offset, count: child.count, selfCount: child.selfCount))
                    visit(child, depth: depth + 1, start: offset)
                }
                offset += child.count
            }
        }
        visit(root, depth: 0, start: 0)
        return out
    }
}
