import ArgumentParser
import Foundation
import MemprofCalibrate
import MemprofCommandLine
import MemprofField
import MemprofFleet
import MemprofOutput

/// `memprof calibrate FIELD… --sweep SWEEP`: fits the sweep's declared parameters to a team's
/// MetricKit field and writes the calibrated sweep and calibration.json.
struct CalibrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Fit a sweep's unknown parameters to MetricKit payloads: the calibrated sweep, calibration.json and calibration.html.",
        discussion: "FIELD is payload files or folders of them (as memprof field reads), or one field.json as memprof field -o "
            + "writes it. The sweep names the team's app "
            + "and the parameters to fit in its calibrate: section. The app's peak and suspended memory, and its sessions "
            + "(launches and resumes a day, foreground time) when the payloads give them, are set from the field; "
            + "the device mix becomes the sweep's cells and mix. Each evaluation runs every fitted cell on the "
            + "same seeds, on this machine's threads or, with --dask, in shards on a Dask cluster (the same result). "
            + "Exit status 0 for a fit, 1 for no fit (the residuals printed), 2 for bad input, 126 when --dask's runner "
            + "fails, 127 when it is not there.")

    @Argument(help: "MetricKit payload files, or folders of them; or one field.json (memprof field -o).")
    var field: [String]

    @Option(help: ArgumentHelp("The base sweep file, with a calibrate: section.", valueName: "file"))
    var sweep: String

    @Option(name: [.short, .long],
            help: ArgumentHelp("Folder to write into (default: Reports/<sweep>-calibration).", valueName: "folder"),
            transform: OutputPath.named)
    var out: String?

    @Option(help: "Threads to run on (default: every core; with --dask, each shard's, default 1). The result does not depend on it.")
    var threads: Int?

    @Option(help: ArgumentHelp("Run each evaluation's sweep on a Dask cluster, in shards (scripts/fleet_dask.py): its "
                               + "scheduler's address (tcp://HOST:PORT) or scheduler file. The result is the same.",
                               valueName: "scheduler"))
    var dask: String?

    @Option(help: ArgumentHelp("Shards of each evaluation's sweep with --dask.", valueName: "n"))
    var daskShards = 8

    @Option(help: ArgumentHelp("The Python with Dask distributed, for --dask.", valueName: "path"))
    var daskPython = ".build/fleet-venv/bin/python"

    @Option(help: ArgumentHelp("The runner --dask starts.", valueName: "path"))
    var daskRunner = "scripts/fleet_dask.py"

    func run() throws {
        if let threads, !(1...1024).contains(threads) { throw BadInput("--threads must be between 1 and 1024, not \(threads)") }
        guard FleetDask.shardRange.contains(daskShards) else {
            throw BadInput("--dask-shards must be between 1 and \(FleetDask.shardRange.upperBound), not \(daskShards)")
        }
        // The workers run this memprof (a path they reach: the same machine, or a shared disk).
        let onDask = dask.map { FleetDask(scheduler: $0, shards: daskShards, python: daskPython, runner: daskRunner,
                                          memprof: SiblingBinary.runningExecutable(), threads: threads ?? 1) }
        let sweepFile = try SweepFile.load(sweep)
        let source: CalibrationField
        switch try FieldFiles.field(field) {
        case .payloads(let payloads):
            guard !payloads.isEmpty else { throw BadInput("no payloads: the files hold empty arrays") }
            source = CalibrationField(payloads: payloads)
        case .summary(let summary):
            guard !summary.cells.isEmpty else { throw BadInput("\(field[0]): the field.json has no cells") }
            source = CalibrationField(summary: summary)
        }
        let problem = try CalibrationProblem(sweep: sweepFile, field: source, fieldPaths: field)
        // Not the calibrated sweep's own name: `memprof sweep` of it writes Reports/<name>-calibrated.
        let folderName = out ?? "Reports/\(sweepFile.name)-calibration"
        let folder = URL(fileURLWithPath: folderName)
        let started = DispatchTime.now().uptimeNanoseconds
        let calibrator = Calibrator(problem: problem, threads: threads ?? ProcessInfo.processInfo.activeProcessorCount, dask: onDask) { e in
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            StandardStream.error("memprof: evaluation \(e.index) (\(e.phase)): objective \(String(format: "%.2f", e.objective))"
                + (e.inside ? ", inside" : "") + ", \(Int(seconds))s\n")
        }
        let calibration = try calibrator.run()
        let workload = CalibratedSweep.workloadPath(sweepFile.workload, from: folder)
        try calibration.write(sweepText: CalibratedSweep.text(calibration, problem: problem, workload: workload), into: folder)
        try StandardStream.out(calibration.text + "\nwritten    \(folderName)/\(CalibratedSweep.fileName), \(folderName)/calibration.json, \(folderName)/calibration.html\n")
        if calibration.outcome != .fit { throw ExitCode(1) }
    }
}
