import Foundation
import MemprofProfile
import MemprofTestSupport
import Testing

@Suite("Speedscope file")
struct SpeedscopeTests {
    static func document() throws -> [String: Any] {
        let data = try ProfileFixtures.profile().makeSpeedscopeJSON(name: "test run")
        return try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("has the $schema speedscope sniffs, shared frames, one sampled profile per handler")
    func structure() throws {
        let document = try Self.document()
        #expect(document["$schema"] as? String == "https://www.speedscope.app/file-format-schema.json")
        #expect(document["name"] as? String == "test run")
        let frames = try #require((document["shared"] as? [String: Any])?["frames"] as? [[String: Any]])
        #expect(frames.count == ProfileFixtures.profile().frames.count)
        #expect(frames[0]["name"] as? String == "main")
        #expect(frames[0]["file"] as? String == "memprof")
        let profiles = try #require(document["profiles"] as? [[String: Any]])
        #expect(profiles.map { $0["name"] as? String } == ["Mail · fetch (checksum)", "Photos · backgroundTask (sort)"])
        let mail = profiles[0]
        #expect(mail["type"] as? String == "sampled")
        #expect(mail["unit"] as? String == "none")
        #expect(mail["weights"] as? [Int] == [8, 2, 2])
        #expect(mail["endValue"] as? Int == 12)
        let samples = try #require(mail["samples"] as? [[Int]])
        #expect(samples[0].first == 0)  // root first: "main"
        #expect(samples[0].count == 4)
    }

    @Test("the same profile gives the same bytes")
    func stable() throws {
        #expect(try ProfileFixtures.profile().makeSpeedscopeJSON() == ProfileFixtures.profile().makeSpeedscopeJSON())
    }

    @Test("validates against speedscope's published JSON schema", .enabled(if: ProcessRunner.succeeds(command: "python3", ["-c", "import jsonschema"])))
    func schema() throws {
        let file = try Scratch.write(
            String(decoding: ProfileFixtures.profile().makeSpeedscopeJSON(), as: UTF8.self),
            name: "profile.speedscope.json")
        let result = try ProcessRunner.run(command: "bash", [Repository.script("check-speedscope.sh"), file.path])
        #expect(result.status == 0, "\(result.output)")
    }

    @Test("the committed schema is speedscope's")
    func fixture() throws {
        let url = try #require(Bundle.module.url(
            forResource: "speedscope-file-format-schema", withExtension: "json", subdirectory: "Fixtures"))
        let schema = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        #expect(schema["$ref"] as? String == "#/definitions/FileFormat.File")
    }
}
