import Foundation
import MemprofCore
@testable import MemprofField
import Testing
import Yams

/// The `.ips` reader: every published fixture reads, and bad or foreign files are refused with
/// the file, line, column and key.
@Suite struct JetsamReaderTests {
    @Test func theIPhone14ReportReadsWithItsBandsAndPages() throws {
        let r = try Field.read("ios18-iphone14-excerpt.ips")
        #expect(r.header.osVersion == "iPhone OS 18.5 (22F76)")
        #expect(r.osVersion?.major == 18 && r.osVersion?.minor == 5)
        #expect(r.product == "iPhone14,7")
        #expect(r.memoryStatus.pageSize == 16384)
        #expect(r.memoryStatus.memoryPages?.free == 3870)
        #expect(r.memoryStatus.compressorSize == 28754)
        let springBoard = r.processes.first { $0.name == "SpringBoard" }!
        #expect(springBoard.priority == 160 && springBoard.states == ["active", "frontmost"] && springBoard.pid == 34)
        #expect(r.killed.isEmpty)
    }

    @Test func theIPhone6PlusReportHasFourKilobytePages() throws {
        let r = try Field.read("ios-iphone6plus-memorylimittest.ips")
        #expect(r.memoryStatus.pageSize == 4096)
        #expect(r.killed.map(\.name) == ["MemoryLimitTest"])
        #expect(r.killed[0].rpages * 4096 == 650 * 1024 * 1024)
    }

    func failure(_ text: String) -> String {
        do {
            _ = try JetsamReportReader(file: "f.ips").read(text)
            return "no error"
        } catch {
            return error.description
        }
    }

    static let workloadKeys: Set<String> = ["memprof", "name", "duration", "device", "policy", "apps", "processes", "script"]

    static let body = """
        {
          "memoryStatus" : { "pageSize" : 16384 },
          "processes" : [ { "name" : "A", "rpages" : 10, "states" : ["frontmost"] } ]
        }
        """

    @Test func badAndForeignFilesAreLocated() {
        let header = #"{"bug_type":"298","timestamp":"t","os_version":"iPhone OS 17.0 (21A329)","incident_id":"i"}"#
        #expect(failure("") == "f.ips:1:1: the file is empty; a JetsamEvent report has a JSON header line and a body")
        #expect(failure("hello").hasPrefix("f.ips:1:1: the first line is not a JSON header"))
        #expect(failure(#"{"bug_type":"309"}"#) == "f.ips:1:13: bug_type: '309' (a crash report) is not a JetsamEvent report; memprof imports bug_type 298")
        #expect(failure(#"{"app_name":"x"}"#) == "f.ips:1:1: the header has no 'bug_type', so this is not an .ips report")
        #expect(failure(header) == "f.ips:1:\(header.utf8.count + 1): invalid JSON: the report ends after its header; a JetsamEvent report has a body")
        #expect(failure(header + "\n" + Self.body) == "no error")
        #expect(failure(header + "\n" + Self.body.replacingOccurrences(of: "\"rpages\" : 10", with: "\"rpages\" : -1"))
            == "f.ips:4:46: processes[0].rpages: -1 is out of range (0…67108864)")
        #expect(failure(header + "\n" + Self.body.replacingOccurrences(of: "\"rpages\" : 10", with: "\"rpages\" : 1.5"))
            == "f.ips:4:46: processes[0].rpages: '1.5' is not a whole number in range")
        #expect(failure(header + "\n" + Self.body.replacingOccurrences(of: "16384", with: "12000"))
            == "f.ips:3:35: memoryStatus.pageSize: 12000 is not a power of two; pages are 4096 or 16384 bytes")
        #expect(failure(header + "\n" + Self.body.replacingOccurrences(of: "\"name\" : \"A\", ", with: ""))
            == "f.ips:4:19: processes[0]: missing 'name'")
        #expect(failure(header + "\n" + Self.body.replacingOccurrences(of: "]\n}", with: "]\n")).hasPrefix("f.ips:"))
        #expect(failure(header + "\n" + Self.body + "\n{}") == "f.ips:6:1: invalid JSON: unexpected text after the report's body")
        let oneProcess = "\"processes\" : [ { \"name\" : \"A\", \"rpages\" : 10, \"states\" : [\"frontmost\"] } ]"
        #expect(failure(header + "\n" + Self.body.replacingOccurrences(of: oneProcess, with: "\"processes\" : []"))
            == "f.ips:4:17: processes: the report lists no processes")
    }

    /// Two values for one key: refused where the second one is.
    @Test func duplicateKeysAreRefusedWhereTheyAre() {
        let header = #"{"bug_type":"298","os_version":"iPhone OS 14.2 (18B5061e)"}"#
        let body = Self.body.replacingOccurrences(of: "\"rpages\" : 10,", with: "\"rpages\" : 10, \"rpages\" : 99999,")
        #expect(failure(header + "\n" + body) == "f.ips:4:50: invalid JSON: the key \"rpages\" appears twice in one object")
        #expect(failure(#"{"bug_type":"298","bug_type":"309"}"#).hasPrefix("f.ips:1:19: the first line is not a JSON header"))
    }

    /// The text LowMemory report: bad values and shapes are refused at their line and column.
    @Test func badLowMemoryReportsAreLocated() throws {
        let good = try Field.fixture(Field.corpus[0])
        #expect(failure(good) == "no error")
        #expect(failure(good.replacingOccurrences(of: "Free pages:                              922", with: "Free pages:                              9x2"))
            == "f.ips:9:42: Free pages: '9x2' is not a whole number in 0…268435456")
        #expect(failure(good.replacingOccurrences(of: "22810            22810", with: "22810            -2281"))
            == "f.ips:30:77: Processes[3].recent_max: '-2281' is not a whole number in 0…268435456")
        #expect(failure(good.replacingOccurrences(of: "\nProcesses\n", with: "\n")).hasPrefix("f.ips:"))
        #expect(failure(good.replacingOccurrences(of: "(frontmost) (resume)", with: "(frontmost) resume"))
            == "f.ips:30:121: Processes[3]: expected '[reason]' or '(state)', found 'resume'")
        #expect(failure(good.replacingOccurrences(of: "Largest process:   mediaserverd", with: "Largest process:   mediaserverd\nFree pages: 1"))
            == "f.ips:23:1: Free pages: 'Free pages' appears twice; which value the report meant cannot be told")
        #expect(failure(good + "\nnot a row\n") == "f.ips:71:1: Processes[43]: expected 'Name <UUID> …', found 'not a row'")
    }

    @Test func nestingIsBounded() {
        let deep = String(repeating: "[", count: 100_000)
        let header = #"{"bug_type":"298"}"#
        #expect(failure(header + "\n" + deep).contains("nested deeper than 64 levels"))
    }

    /// A fuzz test of the reader and the importer: seeded mutations of every fixture (bytes
    /// flipped, dropped, duplicated, spliced from another fixture) never crash either, and every
    /// refusal is located (it names the file).
    @Test func mutatedReportsNeverCrashTheReaderOrTheImporter() throws {
        let names = ["ios11-iphone8-memorytest.ips", "ios-iphone6plus-memorylimittest.ips",
                     "ios13-ipad-apple-documentation.ips", "ios18-iphone14-excerpt.ips"] + Field.corpus
        let inputs = try names.map { Array(try Field.fixture($0).utf8) }
        var rng = SeededGenerator(seed: 16)
        let alphabet = Array("{}[]:,\"-0123456789eE.\\ntu \n".utf8)
        var accepted = 0
        for round in 0..<4000 {
            var bytes = inputs[round % inputs.count]
            for _ in 0..<(1 + Int(rng.next() % 4)) where !bytes.isEmpty {
                let at = Int(rng.next() % UInt64(bytes.count))
                switch rng.next() % 5 {
                case 0: bytes[at] = alphabet[Int(rng.next() % UInt64(alphabet.count))]
                case 1: bytes.remove(at: at)
                case 2: bytes.insert(alphabet[Int(rng.next() % UInt64(alphabet.count))], at: at)
                case 3: bytes[at] = UInt8(truncatingIfNeeded: rng.next())
                default:
                    let other = inputs[Int(rng.next() % UInt64(inputs.count))]
                    let from = Int(rng.next() % UInt64(other.count))
                    bytes.replaceSubrange(at..<min(bytes.count, at + 40), with: other[from..<min(other.count, from + 40)])
                }
            }
            do {
                let report = try JetsamReportReader(file: "m.ips").read(bytes)
                let imported = try JetsamImport(file: "m.ips", name: "m").workload(from: report)
                // Whatever the mutation put in a string, the workload has only its own keys.
                let yaml = (try? Yams.load(yaml: imported.yaml)) as? [String: Any]
                let keys = Set((yaml ?? [:]).keys)
                #expect(yaml != nil && keys.isSubset(of: Self.workloadKeys), "\(imported.yaml)")
                accepted += 1
            } catch {
                #expect(error.description.hasPrefix("m.ips"), "\(error)")
            }
        }
        #expect(accepted > 0, "some mutations keep a valid report")
    }
}
