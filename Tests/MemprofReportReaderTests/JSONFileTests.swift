import Foundation
import MemprofReportReader
import Testing

/// memprof's own JSON files read with every refusal placed: line and column (of the value at
/// fault, of the object for a missing key), the key path, and what is wrong.
struct JSONFileTests {
    struct Doc: Decodable, Equatable {
        struct Item: Decodable, Equatable {
            var name: String
            var size: Double
        }
        var schema: String
        var items: [Item]
    }

    func problem(_ text: String, check: (Doc) throws -> Void = { _ in }) -> String {
        do {
            _ = try JSONFile.read(Doc.self, from: Data(text.utf8), file: "d.json", check: check)
            return "read"
        } catch {
            return error.description
        }
    }

    @Test func aGoodFileReads() throws {
        let doc = try JSONFile.read(Doc.self, from: Data(#"{"schema": "x", "items": [{"name": "a", "size": 1.5}]}"#.utf8), file: "d.json")
        #expect(doc == Doc(schema: "x", items: [.init(name: "a", size: 1.5)]))
    }

    @Test func everyRefusalIsPlacedWithItsKey() {
        let two = "{\n  \"schema\": \"x\",\n  \"items\": [\n    {\"name\": \"a\", \"size\": 1},\n    {\"name\": \"b\", \"size\": \"big\"}\n  ]\n}\n"
        #expect(problem(two) == "d.json:5:27: items[1].size: expected a number, found something else")
        #expect(problem(two.replacingOccurrences(of: "\"name\": \"b\", ", with: ""))
            == "d.json:5:5: items[1].name: missing key 'name'")
        #expect(problem("{\"schema\": \"x\",\n \"items\": null}") == "d.json:2:11: items: expected a list, found null")
        #expect(problem("{\"schema\": \"x\",\n \"items\": [}") .hasPrefix("d.json:2:12: "))
        #expect(problem("{\"schema\": \"x\", \"schema\": \"y\", \"items\": []}").hasPrefix("d.json:1:"))
        #expect(problem("") .hasPrefix("d.json:1:1: "))
        // A check's refusal is placed where its coding path says.
        let wrongSchema = problem("{\n\"items\": [],\n\"schema\": \"v9\"}") { doc in
            guard doc.schema == "x" else {
                throw DecodingError.dataCorrupted(.init(codingPath: [JSONFile.Key("schema")], debugDescription: "'\(doc.schema)' is not x"))
            }
        }
        #expect(wrongSchema == "d.json:3:11: schema: 'v9' is not x")
    }
}
