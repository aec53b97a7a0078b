import ArgumentParser
import Foundation
import MemprofCalibrate
import MemprofCommandLine
import MemprofFleet
import MemprofOutput
import MemprofWorkload

/// `memprof whatif SWEEP --set KEY=VALUE…`: a thin adapter over ``WhatIfPlan``.
struct WhatIfCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "whatif",
        abstract: "Ask a what-if of a (calibrated) sweep: the change runs on the sweep's own seeds, answered in MetricKit's exits per 1,000 device-days.",
        discussion: "Runs the sweep as it is and changed (--set, --device, --policy, --mix), pairs their runs by seed, "
            + "and prints the team's app's MetricKit rates per cell and weighted by the sweep's mix, each change with its "
            + "95% interval. Writes into --out: base/ and changed/ (fleet results), metrickit/ (their payloads), "
            + "whatif.json and whatif.md; with --calibration, fit/N-low|high/ (the what-if at the ends of each fitted parameter's interval).")

    @Argument(help: "A sweep file (a calibrated one, as memprof calibrate writes it), or a built-in sweep.")
    var sweep: String

    @Option(name: [.short, .long], help: ArgumentHelp("Folder to write into (default: Reports/<sweep>-whatif).", valueName: "folder"),
            transform: OutputPath.named)
    var out: String?

    @OptionGroup var overrides: OverrideOptions

    @Option(name: .customLong("mix"),
            help: ArgumentHelp("Another population share for a mixed matrix key: device={iphone-11: 60%, iphone-15: 40%} (repeatable).",
                               valueName: "key={value: share, ...}"))
    var mixes: [String] = []

    @Option(help: ArgumentHelp("Also run the what-if at the ends of each fitted parameter's 95% interval (memprof calibrate's).",
                               valueName: "calibration.json"))
    var calibration: String?

    @Option(help: ArgumentHelp("The team's app (default: the app the changes name, or the workload's only app).", valueName: "app"))
    var app: String?

    @Option(help: ArgumentHelp("Also write the Markdown (for a pull request; also appended to $GITHUB_STEP_SUMMARY when set).",
                               valueName: "file"), transform: OutputPath.named)
    var markdown: String?

    @Option(help: "Threads to run on (default: every core). The result does not depend on it.")
    var threads: Int?

    @Flag(help: "Show every row, also the other apps' counters that did not change significantly.")
    var all = false

    func run() throws {
        if let threads, !(1...1024).contains(threads) { throw BadInput("--threads must be between 1 and 1024, not \(threads)") }
        let file = try SweepFile.load(sweep)
        let mix = try mixes.map { try file.mix(option: $0) }
        let fit = try calibration.map(Calibration.read)
        let fitted = fit?.whatIfParameters
        let changes = try WorkloadOverride.list(device: overrides.device, policy: overrides.policy, assignments: overrides.assignments)
        let plan = try WhatIfPlan(sweep: file, changes: changes, mix: mix, app: app ?? fit?.app.key,
                                  parameters: fitted?.parameters ?? [])
        for note in fitted?.notes ?? [] { StandardStream.error("memprof: note: \(note)\n") }
        let folder = out ?? "Reports/\(file.name)-whatif"
        let result = try plan.run(threads: threads ?? ProcessInfo.processInfo.activeProcessorCount,
                                  into: URL(fileURLWithPath: folder))
        let markdownText = WhatIfOutput.markdown(result, all: all)
        if let markdown { try AtomicFiles.write(Data(markdownText.utf8), to: markdown) }
        _ = try Terminal.appendToStepSummary(markdownText)
        try StandardStream.out(WhatIfOutput.terminal(result, folder: folder, all: all))
    }
}
