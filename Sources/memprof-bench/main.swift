// Benchmark of the simulator and the report writer on a large generated workload:
// 100 apps over 24 hours, a switch every 30 s, fetches and pushes. Run in release mode
// through scripts/bench.sh; prints events per second, JSON write speed and peak memory.
import Foundation
import MemprofCore
import MemprofReport

func makeWorkload(apps count: Int, hours: Int64) -> Workload {
    var generator = SeededGenerator(seed: 42)
    var apps: [AppSpec] = []
    for i in 0..<count {
        let footprint = generator.int64(in: 8...220) * .megabyte
        var app = AppSpec(id: "app\(i)", launchFootprint: footprint,
                          launchTimeUs: generator.int64(in: 300_000...3_000_000),
                          growth: Rate(bytes: generator.int64(in: 0...4) * .megabyte, perUs: .minute),
                          maxFootprint: footprint + 80 * .megabyte,
                          backgroundRelease: footprint / 3, memoryWarningRelease: footprint / 10)
        if i % 3 == 0 {
            app.modes = [.fetch, .remoteNotification]
            app.fetch = FetchSpec(intervalUs: 15 * .minute, handler: HandlerSpec(timeUs: 4 * .second, allocates: 4 * .megabyte))
            app.push = HandlerSpec(timeUs: 2 * .second, allocates: 2 * .megabyte)
        }
        if i % 4 == 0 {
            app.backgroundTask = BackgroundTaskSpec(handler: HandlerSpec(timeUs: generator.int64(in: 1...15) * .minute,
                                                                         allocates: 10 * .megabyte),
                                                    endsOnExpiration: i % 8 == 0)
        }
        apps.append(app)
    }
    let duration = hours * 3600 * .second
    var script: [ScriptEntry] = []
    var t: Int64 = 0
    while true {
        t += generator.int64(in: 30...150) * .second
        if t > duration { break }
        script.append(ScriptEntry(atUs: t, action: .push(Int(generator.int64(in: 0...Int64(count - 1))))))
    }
    let generate = GenerateSpec(switchEveryUs: 30 * .second,
                                weights: (0..<count).map { ($0, Int(generator.int64(in: 1...10))) },
                                homeEveryUs: 10 * .minute)
    return Workload(name: "bench", seed: 1, durationUs: duration, device: Device.preset(named: "iphone-6-plus")!,
                    apps: apps, script: script, generate: generate)
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func peakMemoryMB() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024
}

/// The CPU time of the calling thread, in seconds: on a machine shared with others' builds it
/// moves far less than wall time.
func threadCPUSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// The best wall and CPU times of `runs` simulations of `workload` (only `run()` is timed: the
/// previous result is released outside the clock), and the last result.
func simulate(_ workload: Workload, keepsHistory: Bool, runs: Int = 3)
    -> (seconds: Double, cpu: Double, result: SimulationResult) {
    var best = Double.infinity, bestCPU = Double.infinity
    var last: SimulationResult?
    for _ in 0..<runs {
        last = nil
        var simulator = Simulator(workload: workload, options: Simulator.Options(keepsHistory: keepsHistory))
        var result: SimulationResult?
        let cpu = threadCPUSeconds()
        best = min(best, seconds { result = simulator.run() })
        bestCPU = min(bestCPU, threadCPUSeconds() - cpu)
        last = result
    }
    return (best, bestCPU, last!)
}

func figures(_ seconds: Double, _ cpu: Double, _ occurrences: Int) -> String {
    String(format: "%.4f s wall (%.2f M/s), %.4f s CPU (%.2f M/s)", seconds, Double(occurrences) / seconds / 1e6,
           cpu, Double(occurrences) / cpu / 1e6)
}

let workload = makeWorkload(apps: 100, hours: 24)
if CommandLine.arguments.contains("--without-history") {
    // For profiling what a sweep's run costs: 20 simulations without history, nothing else.
    let bare = simulate(workload, keepsHistory: false, runs: 20)
    print("without history \(figures(bare.seconds, bare.cpu, bare.result.processedOccurrences))")
    exit(0)
}
let (best, bestCPU, result) = simulate(workload, keepsHistory: true)
// Sweeps run without history (no events, series, intervals or jetsam snapshots).
let bare = simulate(workload, keepsHistory: false)
if CommandLine.arguments.contains("--simulate-only") {
    print("simulation \(figures(best, bestCPU, result.processedOccurrences)); "
        + "without history \(figures(bare.seconds, bare.cpu, result.processedOccurrences))")
    exit(0)
}
let report = Report(result: result, workloadSha256: String(repeating: "0", count: 64), source: "bench",
                    host: .current(simulationWallMs: best * 1000, processedOccurrences: result.processedOccurrences))
var data = Data()
var encodeBest = Double.infinity
for _ in 0..<3 {
    encodeBest = min(encodeBest, try seconds { data = try ReportJSON.encode(report) })
}
let sizeMB = Double(data.count) / 1_048_576

print("workload            100 apps, 24 h simulated, switch every ~30 s, \(workload.script.count) pushes")
print("simulation          \(figures(best, bestCPU, result.processedOccurrences)), best of 3")
print("queue occurrences   \(result.processedOccurrences) -> \(String(format: "%.2f", Double(result.processedOccurrences) / best / 1e6)) M/s")
print("without history     \(figures(bare.seconds, bare.cpu, result.processedOccurrences)), best of 3 (as sweeps run)")
print("report events       \(result.events.count) -> \(String(format: "%.2f", Double(result.events.count) / best / 1e6)) M/s")
print("report.json         \(String(format: "%.1f", sizeMB)) MB encoded in \(String(format: "%.3f", encodeBest)) s -> \(String(format: "%.1f", sizeMB / encodeBest)) MB/s")
print("peak memory         \(String(format: "%.0f", peakMemoryMB())) MB (max RSS)")
print("summary             \(result.summary.evictions) evictions, \(result.summary.compressions) compressions, \(result.summary.coldLaunches) cold launches")
