import Foundation
import Testing

/// The design note's "Following memprof run" lists every project type the run path names: the
/// types a reader opens (numbered, at most 25) and those met in passing. These tests read the
/// note and the path's source files, so a type added to the path and left out of the note fails.
@Suite struct RunPathNoteTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The files of the path: the command, the pipeline's module, the sink protocol, and the
    /// three sinks with report.json's writer.
    static let pathFiles = ["Sources/memprof/RunCommand.swift", "Sources/MemprofReport/RunFileSink.swift",
                            "Sources/MemprofReport/ReportFileSink.swift", "Sources/MemprofReport/ReportJSON.swift",
                            "Sources/MemprofTrace/TraceFileSink.swift", "Sources/MemprofHTML/PageSink.swift"]
        + ((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Sources/MemprofRun").path)) ?? [])
        .filter { $0.hasSuffix(".swift") }.sorted().map { "Sources/MemprofRun/" + $0 }

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The note's section: the numbered types, and every other type it names in code voice.
    static func note() throws -> (opened: [String], named: Set<String>) {
        let note = try text("Sources/MemprofRun/MemprofRun.docc/DesignNotes.md")
        let start = try #require(note.range(of: "## Following memprof run"))
        let rest = note[start.upperBound...]
        let section = rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)]
        let opened = section.split(separator: "\n").compactMap { line -> String? in
            guard let match = line.firstMatch(of: /^\d+\. `{1,2}(\w+)`{1,2}/) else { return nil }
            return String(match.1)
        }
        let named = Set(section.matches(of: /`{1,2}([A-Z]\w*)/).map { String($0.1) })
        return (opened, named)
    }

    /// The types, protocols and aliases `code` declares at the top level (nested ones are reached
    /// through their outer type).
    static func topLevelTypes(_ code: String) -> Set<String> {
        let declaration = /(?:(?:public|package|internal|fileprivate|private|final|open|indirect)\s+)*(?:struct|class|enum|protocol|actor|typealias)\s+([A-Z]\w*)/
        return Set(code.split(separator: "\n").compactMap { line in line.prefixMatch(of: declaration).map { String($0.1) } })
    }

    /// Every type, protocol and alias the package's sources declare at the top level.
    static func declaredTypes() throws -> Set<String> {
        var names = Set<String>()
        let sources = root.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path))
        for case let file as String in files where file.hasSuffix(".swift") {
            names.formUnion(topLevelTypes(try text("Sources/" + file)))
        }
        return names
    }

    @Test func theNoteListsAtMost25TypesEachDeclared() throws {
        let (opened, _) = try Self.note()
        let declared = try Self.declaredTypes()
        #expect(opened.count >= 20 && opened.count <= 25, "the note lists \(opened.count) types a reader opens")
        #expect(Set(opened).count == opened.count)
        for name in opened { #expect(declared.contains(name), "\(name) is listed but declared nowhere") }
    }

    @Test func everyTypeThePathNamesIsInTheNote() throws {
        let (opened, named) = try Self.note()
        let declared = try Self.declaredTypes()
        let listed = named.union(opened)
        #expect(Self.pathFiles.count > 8)
        for path in Self.pathFiles {
            var code = try Self.text(path)
            // Comments and strings name things the code does not use.
            code = code.replacing(/\/\/[^\n]*/, with: "").replacing(/"(?:[^"\\\n]|\\.)*"/, with: "\"\"")
            // Types declared in the file itself (its helpers) are read with it.
            let own = Set(code.matches(of: /\b(?:struct|class|enum|protocol|actor|typealias)\s+([A-Z]\w*)/).map { String($0.1) })
            code = code.split(separator: "\n").filter { !$0.hasPrefix("import ") }.joined(separator: "\n")
            // A type named on its own, not a member or a nested type reached through its outer one.
            let used = Set(code.matches(of: /(\.?)\b([A-Z]\w*)/).filter { $0.1.isEmpty }.map { String($0.2) })
            for name in used.subtracting(own).sorted() where declared.contains(name) && !listed.contains(name) {
                Issue.record("\(path) names \(name), which the design note's \"Following memprof run\" does not list")
            }
        }
    }
}
