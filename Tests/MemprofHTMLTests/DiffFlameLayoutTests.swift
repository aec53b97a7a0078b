import Testing
@testable import MemprofHTML

@Suite struct DiffFlameLayoutTests {
    /// Base: main;a ×3, main;b ×1 (4 samples). New: main;a ×1, main;b ×3, main;c ×4 (8 samples).
    /// Laid out by the new run, siblings by name: a [0,1), b [1,4), c [4,8) under main [0,8).
    /// Shares: main 100% → 100%; a 75% → 12.5%; b 25% → 37.5%; c 0% → 50%.
    @Test func shapeFromTheNewRunColourFromTheChange() {
        let base = [(frames: ["main", "a"], count: 3), (frames: ["main", "b"], count: 1)]
        let new = [(frames: ["main", "a"], count: 1), (frames: ["main", "b"], count: 3), (frames: ["main", "c"], count: 4)]
        let boxes = DiffFlameLayout.boxes(base: base, new: new)
        #expect(boxes.map(\.name) == ["main", "a", "b", "c"])
        #expect(boxes.map(\.start) == [0, 0, 1, 4])
        #expect(boxes.map(\.count) == [8, 1, 3, 4])
        #expect(boxes.map(\.depth) == [0, 1, 1, 1])
        #expect(boxes.map(\.newShare) == [1, 0.125, 0.375, 0.5])
        #expect(boxes.map(\.baseShare) == [1, 0.75, 0.25, 0])
        #expect(boxes[1].delta == -0.625)
        #expect(boxes[3].delta == 0.5)
    }

    @Test func stacksOnlyInTheBaseAreNotDrawn() {
        let boxes = DiffFlameLayout.boxes(base: [(frames: ["main", "gone"], count: 5)],
                                          new: [(frames: ["main", "kept"], count: 2)])
        #expect(boxes.map(\.name) == ["main", "kept"])
        #expect(boxes[1].baseShare == 0)
    }
}
