import Foundation
import MemprofProfile
import MemprofTestSupport
import Testing

@Suite("Folded stacks")
struct FoldedStacksTests {
    /// flamegraph.pl's own line pattern.
    static let flameGraphLine = try! NSRegularExpression(pattern: #"^(.*)\s+?(\d+(?:\.\d*)?)$"#)

    static func parse(_ line: String) -> (stack: String, count: String)? {
        let range = NSRange(line.startIndex..., in: line)
        guard let match = flameGraphLine.firstMatch(in: line, range: range),
            let stack = Range(match.range(at: 1), in: line), let count = Range(match.range(at: 2), in: line)
        else { return nil }
        return (String(line[stack]), String(line[count]))
    }

    @Test("lines are root-first `a;b;c N`, sorted, rooted at app and handler")
    func format() {
        let text = ProfileFixtures.profile().makeFoldedStacks()
        #expect(text.hasSuffix("\n"))
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines == lines.sorted())
        #expect(lines.contains(
            "Mail;fetch;main;static MemprofSampler.ChecksumKernel.run(bytes:);MemprofSampler.ChecksumKernel.checksumBuffer(_:seed:);"
                + "MemprofSampler.ChecksumKernel.crc32Update(_:_:) 8"))
        #expect(lines.contains("Photos;backgroundTask;main;MemprofSampler.SortKernel.sortRecords(_:) 5"))
        #expect(lines.count == 4)
    }

    @Test("without handler roots the stacks start at the outermost frame")
    func unrooted() {
        let lines = ProfileFixtures.profile().makeFoldedStacks(rootedAtHandler: false).split(separator: "\n")
        #expect(lines.allSatisfy { $0.hasPrefix("main;") })
    }

    @Test("every line parses the way flamegraph.pl reads it, counts are integers, names clean")
    func flameGraphRules() throws {
        let text = ProfileFixtures.profile().makeFoldedStacks()
        var total = 0
        for line in text.split(separator: "\n").map(String.init) {
            let parsed = try #require(Self.parse(line))
            // A stack that itself ends in " NUMBER" would be read as a differential column.
            #expect(Self.parse(parsed.stack) == nil, "stack ends in a number: \(line)")
            let count = try #require(Int(parsed.count))
            #expect(count > 0)
            total += count
            let frames = parsed.stack.split(separator: ";", omittingEmptySubsequences: false)
            #expect(frames.allSatisfy { !$0.isEmpty && !$0.contains("\t") })
        }
        #expect(total == ProfileFixtures.profile().sampleCount)
        #expect(text.contains("Mail;fetch;main;oddname with breaks_42 2"))
    }

    @Test("the file passes scripts/check-folded.sh", .enabled(if: ProcessRunner.succeeds(command: "perl", ["-e", "1"])))
    func checkScript() throws {
        let file = try Scratch.write(ProfileFixtures.profile().makeFoldedStacks(), name: "stacks.folded")
        let result = try ProcessRunner.run(command: "bash", [Repository.script("check-folded.sh"), file.path])
        #expect(result.status == 0, "\(result.output)")
    }
}
