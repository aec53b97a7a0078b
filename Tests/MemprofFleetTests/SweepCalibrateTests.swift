import MemprofInput
import Testing
@testable import MemprofFleet

/// A sweep file's `calibrate:` section: the parameters and their ranges as read, and every
/// mistake located at file, line, column and key.
struct SweepCalibrateTests {
    static let head = "memprof: 1\nsweep: fit\nworkload: phone-day-2026\nseeds: 1..10\nmatrix:\n  device: [iphone-11, iphone-15]\n"

    func error(_ calibrate: String) -> String {
        do {
            _ = try SweepFile.parse(Self.head + calibrate, file: "sweep.yaml")
            return "no error"
        } catch let e as WorkloadError {
            return "\(e.file):\(e.line):\(e.column): \(e.keyPath): \(e.message)"
        } catch { return "\(error)" }
    }

    @Test func parametersAreReadWithTheirKindsAndBounds() throws {
        let sweep = try SweepFile.parse(Self.head + """
            calibrate:
              app: mail
              parameters:
                - {key: device.systemReserved, low: 0MB, high: 2GB}
                - {key: generate.switchEvery, low: 2m, high: 20m}
                - {key: apps.game.compressionRatio, low: 1.5, high: 4}
              holdOut: [iphone-15]
            """, file: "sweep.yaml")
        let c = try #require(sweep.calibrate)
        #expect(c.app == "mail" && c.bundleIdentifier == nil && c.holdOut == ["iphone-15"])
        #expect(c.budget == SweepFile.Calibrate.defaultBudget && c.maxSeeds == SweepFile.Calibrate.defaultMaxSeeds)
        #expect(c.parameters.map(\.kind) == [.size, .duration, .number])
        #expect(c.parameters[0].high == 2 * 1024 * 1024 * 1024 && c.parameters[1].low == 120_000_000 && c.parameters[2].high == 4)
        // Values are written as the workload reads them exactly: whole bytes, microseconds.
        #expect(c.parameters.map { $0.text($0.low + 0.4) } == ["0B", "120000000us", "1.9"])
        #expect(c.parameters[0].origin.keyLine == 10)
    }

    /// What `calibrate` and `whatif` print of a value: sizes and durations as memprof prints
    /// them elsewhere (`Format`), never the exact text a sweep's `set:` gets (`1468006400B`).
    @Test func valuesAreSaidInWordsFromTheirNumbersOrTheirText() {
        typealias Kind = SweepFile.Calibrate.Kind
        #expect(Kind.size.words(1_468_006_400) == "1400 MB" && Kind.size.words(52_428_800) == "50 MB" && Kind.size.words(0) == "0 B")
        #expect(Kind.duration.words(288_281_250) == "4m48s" && Kind.number.words(0.354) == "0.35" && Kind.number.words(3) == "3")
        for (kind, value) in [(Kind.size, 1_468_006_400.0), (.size, 1_905_881_043), (.duration, 288_281_250), (.number, 1.9)] {
            #expect(Kind.words(text: kind.text(value)) == kind.words(value), "\(kind) \(value)")
        }
        #expect(Kind.words(text: "1468006400B") == "1400 MB" && Kind.words(text: "1905881043B") == "1818 MB")
        // Text that is not of the forms `text` writes is left as it is.
        #expect(Kind.words(text: "1500MB") == "1500MB" && Kind.words(text: "iphone-11") == "iphone-11")
    }

    @Test func mistakesAreLocated() {
        let p = "calibrate:\n  app: mail\n  parameters:\n"
        #expect(error(p + "    - {key: device.systemReserved, low: 2GB, high: 1GB}\n")
            == "sweep.yaml:10:52: calibrate.parameters[0].high: high (1GB) must be above low (2GB)")
        #expect(error(p + "    - {key: device.systemReserved, low: 0MB, high: 20m}\n")
            .hasSuffix("high is a duration but low is a size; write both alike"))
        #expect(error(p + "    - {key: device.systemReserved, low: 0MB, high: lots}\n")
            .hasSuffix("'lots' is not a size (612MB), a duration (5m) or a number"))
        #expect(error(p + "    - {key: device, low: 1, high: 2}\n").contains("'device' is a key of the matrix"))
        #expect(error(p + "    - {key: seed, low: 1, high: 2}\n").contains("'seed' cannot be fitted"))
        #expect(error(p + "    - {key: a..b, low: 1, high: 2}\n").contains("is not a key"))
        #expect(error(p + "    - {key: x, low: 1, high: 2}\n    - {key: x, low: 1, high: 3}\n")
            .hasPrefix("sweep.yaml:11:13: calibrate.parameters[1].key: parameter 'x' is declared twice"))
        #expect(error(p + "    - {key: x, low: 1, high: 2, step: 1}\n").contains("step"))
        #expect(error(p + "    []\n").contains("declare at least one parameter"))
        #expect(error(p + (1...7).map { "    - {key: k\($0), low: 1, high: 2}\n" }.joined()).contains("7 parameters; at most 6"))
        #expect(error("calibrate:\n  app: mail\n  parameters: [{key: x, low: 1, high: 2}]\n  budget: 1\n")
            == "sweep.yaml:10:11: calibrate.budget: expected at least 2, found 1")
        // An evaluation runs at least 20 seeds, so a smaller most is refused rather than exceeded.
        #expect(error("calibrate:\n  app: mail\n  parameters: [{key: x, low: 1, high: 2}]\n  maxSeeds: 12\n")
            == "sweep.yaml:10:13: calibrate.maxSeeds: 12 is below 20, the fewest seeds an evaluation runs; write 20 or more")
        #expect(error("calibrate:\n  app: mail\n  parameters: [{key: x, low: 1, high: 2}]\n  maxSeeds: 20\n") == "no error")
        #expect(error("calibrate:\n  app: mail\n  parameters: [{key: x, low: 1, high: 2}]\n  maxSeeds: 2000000\n")
            .hasSuffix("calibrate.maxSeeds: 2000000 is too large; the largest value accepted is 1000000"))
        #expect(error("calibrate:\n  app: mail\n  parameters: [{key: x, low: 1, high: 2}]\n  holdOut: [iphone-16]\n")
            .hasPrefix("sweep.yaml:10:13: calibrate.holdOut[0]: 'iphone-16' is not a value of the matrix's device axis (iphone-11, iphone-15)"))
        #expect(error("calibrate:\n  parameters: [{key: x, low: 1, high: 2}]\n").contains("app"))
        #expect(error("calibrate:\n  app: mail\n  parameters: [{key: x, low: 1, high: 2}]\n  bugdet: 3\n").contains("bugdet"))
    }
}
