import CSampler
import Foundation
import MemprofPlatform
import MemprofCore

/// Runs a program as a handler's work (spec §8.1): starts it with memprof's preload library,
/// reads its allocations and samples while it runs, and stops it at its wall-clock limit.
enum ProgramRunner {
    /// One distinct stack of the program, innermost address first, with its totals.
    struct RawStack {
        var addresses: [UInt]
        var truncated: Bool
        var samples: Int
        var allocatedBytes: Int64
        var allocations: Int64
        var peakBytes: Int64
        var leakedBytes: Int64
        var leakedBlocks: Int64
    }

    struct Run {
        var result: csampler_program_result
        var stacks: [RawStack]
        var modules: [ProgramModule]
        var stderrTail: String
        var timedOut: Bool
    }

    /// The preload library: `MEMPROF_PRELOAD_LIBRARY`, else `libmemprof-preload.so` next to the
    /// running executable (SwiftPM builds it into the same folder as `memprof`).
    static func preloadLibrary() -> String? {
        if let path = ProcessInfo.processInfo.environment["MEMPROF_PRELOAD_LIBRARY"], !path.isEmpty {
            return FileManager.default.fileExists(atPath: path) ? path : nil
        }
        let candidate = RunningExecutable.folder + "/libmemprof-preload.so"
        return FileManager.default.fileExists(atPath: candidate) ? candidate : nil
    }

    /// Runs `spec` sampled at `rateHz` (0: unsampled), killing it after `wallLimitUs`.
    /// - Throws: a sentence saying why the program could not start.
    static func run(_ spec: ProgramSpec, rateHz: Double, wallLimitUs: Int64?) throws(ProgramStartError) -> Run {
        guard let path = ProgramFile.resolve(spec.command[0]) else {
            throw ProgramStartError(message: ProgramFile.problem(with: spec.command[0]) ?? "cannot find \(spec.command[0])")
        }
        guard let preload = preloadLibrary() else {
            throw ProgramStartError(message: "libmemprof-preload.so is missing next to memprof (build it: swift build --product memprof-preload)")
        }
        var environment = ProcessInfo.processInfo.environment
        for (name, value) in spec.environment { environment[name] = value }
        let variables = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let arguments = [path] + spec.command.dropFirst()
        var error = [CChar](repeating: 0, count: 512)
        let program: OpaquePointer? = withCStrings(arguments) { argv in
            withCStrings(variables) { envp in
                csampler_program_start(path, argv, envp, spec.directory, preload, rateHz, &error, error.count)
            }
        }
        guard let program else {
            throw ProgramStartError(message: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        defer { csampler_program_free(program) }
        let start = DispatchTime.now().uptimeNanoseconds
        var timedOut = false
        while csampler_program_poll(program, 1) == 1 {
            if let wallLimitUs, !timedOut,
               DispatchTime.now().uptimeNanoseconds - start > UInt64(max(0, wallLimitUs)) * 1000 {
                timedOut = true
                csampler_program_kill(program)
            }
        }
        var result = csampler_program_result()
        csampler_program_get_result(program, &result)
        let stacks = boundedStacks(rawStacks(of: program))
        var modules: [ProgramModule] = []
        for index in 0..<csampler_program_module_count(program) {
            var bias: UInt64 = 0, low: UInt64 = 0, high: UInt64 = 0
            var modulePath: UnsafePointer<CChar>?
            csampler_program_get_module(program, index, &bias, &low, &high, &modulePath)
            if let modulePath {
                modules.append(ProgramModule(path: String(cString: modulePath), bias: UInt(bias), low: UInt(low), high: UInt(high)))
            }
        }
        var length = 0
        let tail = csampler_program_stderr_tail(program, &length)
        let stderrTail = tail.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: length), as: UTF8.self) } ?? ""
        return Run(result: result, stacks: stacks, modules: modules, stderrTail: stderrTail, timedOut: timedOut)
    }

    /// The stacks a program run (or an allocation tracker, which shares its folding) gathered.
    static func rawStacks(of program: OpaquePointer) -> [RawStack] {
        var stacks: [RawStack] = []
        let count = csampler_program_stack_count(program)
        stacks.reserveCapacity(count)
        for index in 0..<count {
            var stack = csampler_program_stack()
            csampler_program_get_stack(program, index, &stack)
            let addresses = (0..<Int(stack.depth)).map { UInt(stack.frames[$0]) }
            stacks.append(RawStack(
                addresses: addresses, truncated: stack.truncated != 0, samples: Int(clamping: stack.samples),
                allocatedBytes: Int64(clamping: stack.allocated_bytes), allocations: Int64(clamping: stack.allocations),
                peakBytes: Int64(clamping: stack.peak_bytes), leakedBytes: Int64(clamping: stack.end_bytes),
                leakedBlocks: Int64(clamping: stack.end_blocks)))
        }
        return stacks
    }

    /// Stacks kept per run: the heaviest by samples, by bytes allocated and by bytes at the peak
    /// or at exit; the rest are added up into one stack without frames, so totals stay whole and
    /// a program with millions of distinct stacks cannot make a report of millions of frames.
    static let keptStacks = 4000

    static func boundedStacks(_ stacks: [RawStack]) -> [RawStack] {
        guard stacks.count > keptStacks else { return stacks }
        var keep = Set<Int>()
        let orders: [(RawStack) -> Int64] = [{ Int64($0.samples) }, { $0.allocatedBytes }, { max($0.peakBytes, $0.leakedBytes) }]
        for weight in orders {
            let ranked = stacks.indices.sorted { weight(stacks[$0]) > weight(stacks[$1]) }
            keep.formUnion(ranked.prefix(keptStacks / orders.count).filter { weight(stacks[$0]) > 0 })
        }
        var rest = RawStack(addresses: [], truncated: true, samples: 0, allocatedBytes: 0, allocations: 0,
                            peakBytes: 0, leakedBytes: 0, leakedBlocks: 0)
        for index in stacks.indices where !keep.contains(index) {
            let stack = stacks[index]
            rest.samples &+= stack.samples
            rest.allocatedBytes &+= stack.allocatedBytes
            rest.allocations &+= stack.allocations
            rest.peakBytes &+= stack.peakBytes
            rest.leakedBytes &+= stack.leakedBytes
            rest.leakedBlocks &+= stack.leakedBlocks
        }
        return keep.sorted().map { stacks[$0] } + [rest]
    }

    private static func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        pointers.append(nil)
        defer { for pointer in pointers { free(pointer) } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}

/// The programs run as work that are running now.
public enum RunningPrograms {
    /// Ends every running program's process group (what it started included): what an
    /// interrupted memprof does before it exits.
    public static func endAll() { csampler_programs_end_all() }
}

/// An object loaded in the program: its file, load bias and address range.
struct ProgramModule {
    var path: String
    var bias: UInt
    var low: UInt
    var high: UInt
}

/// Why a program could not be started.
struct ProgramStartError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// Signal names for reports.
enum SignalName {
    static func name(_ number: Int32) -> String {
        let names: [Int32: String] = [
            SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP",
            SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGUSR1: "SIGUSR1",
            SIGSEGV: "SIGSEGV", SIGUSR2: "SIGUSR2", SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGTERM: "SIGTERM",
            SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ", SIGSYS: "SIGSYS",
        ]
        return names[number] ?? "signal \(number)"
    }
}
