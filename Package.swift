// swift-tools-version: 6.1
// 6.1: package traits. Hummingbird is built without its optional swift-configuration support, and
// memprof's own `Serve` trait (on by default) guards every dependency of `memprof-serve`, so a
// build with `--disable-default-traits` (./scripts/memprof) neither resolves nor builds them.
import PackageDescription

/// The two sinks that take every event of a run (report.json's and trace.json's) touch their
/// stored properties per event: their release builds go without the run-time exclusivity checks,
/// which cost 6% of a run's instructions there (MemprofRun's Benchmarks article). Every other
/// module, and debug builds and tests, keep them.
let hotSinkSettings: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]

/// A dependency of `memprof-serve` only: resolved and built with the `Serve` trait.
let serve: TargetDependencyCondition? = .when(traits: ["Serve"])

let package = Package(
    name: "memprof",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "memprof", targets: ["memprof"]),
        // `memprof serve` runs this sibling binary, so Hummingbird and SwiftNIO stay out of `memprof`.
        .executable(name: "memprof-serve", targets: ["memprof-serve"]),
        .library(name: "MemprofCore", targets: ["MemprofCore"]),
        .library(name: "MemprofInput", targets: ["MemprofInput"]),
        .library(name: "MemprofYAMLReader", targets: ["MemprofYAMLReader"]),
        .library(name: "MemprofWorkload", targets: ["MemprofWorkload"]),
        .library(name: "MemprofReport", targets: ["MemprofReport"]),
        .library(name: "MemprofReportReader", targets: ["MemprofReportReader"]),
        .library(name: "MemprofCompare", targets: ["MemprofCompare"]),
        .library(name: "MemprofProfile", targets: ["MemprofProfile"]),
        .library(name: "MemprofSampler", targets: ["MemprofSampler"]),
        .executable(name: "memprof-bench-sampler", targets: ["memprof-bench-sampler"]),
        // Preloaded into a program a workload runs as work (spec §8.1): libmemprof-preload.so.
        .library(name: "memprof-preload", type: .dynamic, targets: ["CMemprofPreload"]),
    ],
    traits: [
        .trait(name: "Serve", description: "memprof-serve and its tests: Hummingbird on SwiftNIO"),
        .default(enabledTraits: ["Serve"]),
    ],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        // `memprof-serve` only: Hummingbird on SwiftNIO (and the NIO modules its request guard uses).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    // Layers: the table under the README's "Layout" is the one list; scripts/check-manifest.sh holds
    // every target to it (each depends only on its own row and those above).
    targets: [
        // How output leaves memprof: the one JSON writer, the one YAML writer, escapers, JUnit XML,
        // files written whole.
        .target(name: "MemprofOutput", dependencies: ["MemprofPlatform"]),
        // The system under memprof, in one module: its C library (re-exported, so no other module
        // names Glibc) and the calls that are Linux's own (renameat2's exchange, /proc, O_DIRECT
        // and statx's alignment through CFileIO). A port to another system changes this module.
        .target(name: "MemprofPlatform", dependencies: ["CFileIO"]),
        // What file output asks of the system beyond Swift's Glibc module: O_DIRECT, the alignment
        // direct I/O needs (statx), hole punching (fallocate).
        .target(name: "CFileIO"),
        .testTarget(name: "MemprofOutputTests", dependencies: ["MemprofPlatform", "MemprofOutput", .product(name: "Yams", package: "Yams")]),
        // The simulation: lifecycle, memory, policies. Synchronous, deterministic, no I/O.
        .target(
            name: "MemprofCore",
            dependencies: [.product(name: "HeapModule", package: "swift-collections")]
        ),
        // How input enters memprof: the files it opens (regular files only), their text checked
        // as UTF-8, the strict JSON scanner (report.json, `.ips`), quantities, and located errors.
        .target(
            name: "MemprofInput",
            dependencies: ["MemprofPlatform", "MemprofCore", "MemprofOutput"]
        ),
        // YAML (and JSON written as YAML) composed into one tree (from libyaml's events: Yams for
        // its C module `CYaml` and its scalar constructors, not its composer) with located errors,
        // and the node reader every YAML file is read through. Apart from MemprofInput so that
        // what reads only JSON (the report reader, `memprof-serve`) does not link Yams.
        .target(
            name: "MemprofYAMLReader",
            dependencies: ["MemprofCore", "MemprofInput", .product(name: "Yams", package: "Yams")]
        ),
        .testTarget(name: "MemprofInputTests", dependencies: ["MemprofInput", "MemprofCore", "MemprofOutput", "MemprofPlatform"]),
        // The workload format: YAML/JSON text to a validated `Workload`, with located errors, how
        // much work a workload describes, and `WorkloadSource`, the one way commands load one.
        .target(
            name: "MemprofWorkload",
            dependencies: ["MemprofCore", "MemprofInput", "MemprofYAMLReader", "CCrypto"]
        ),
        // The report model (`memprof.report/1`), built from a simulation, and its JSON form.
        .target(
            name: "MemprofReport",
            dependencies: ["MemprofPlatform", "MemprofCore", "MemprofProfile", "MemprofOutput"],
            swiftSettings: hotSinkSettings
        ),
        // Reading report.json back (compare, check, export): the checked, bounded reader over
        // MemprofInput's JSON scanner and its plain decoder, the loader of a report's file
        // (`ReportLoader`, mapped into memory), and a report's metrics as numbers (their paths,
        // kinds, directions and values in their units). A run reads the reports beside its own only
        // for the runs index (MemprofHTML's RunIndex), through the same reader.
        .target(name: "MemprofReportReader", dependencies: ["MemprofPlatform", "MemprofReport", "MemprofCore", "MemprofOutput", "MemprofInput"]),
        .testTarget(name: "MemprofReportReaderTests", dependencies: ["MemprofReportReader", "MemprofReport", "MemprofCore",
                                                                   "MemprofOutput", "MemprofTestSupport", "MemprofInput"]),
        // One run as a library: workload in, report and its rendered files out, a report folder to write them to.
        .target(
            name: "MemprofRun",
            dependencies: ["MemprofCore", "MemprofWorkload", "MemprofReport", "MemprofHTML", "MemprofTrace",
                           "MemprofSampler", "MemprofProfile", "MemprofOutput"]
        ),
        // What memprof's executables share: the one main (errors to exit statuses, signals, standard
        // output checked), running `memprof-serve` in its place, the options several commands take.
        .target(
            name: "MemprofCommandLine",
            dependencies: ["MemprofPlatform", "MemprofOutput", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .testTarget(name: "MemprofCommandLineTests", dependencies: ["MemprofCommandLine", "MemprofOutput",
                                                                  .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // The command line: parses arguments, calls the libraries, maps errors to exit codes. Every
        // command but `serve` (which runs `memprof-serve`) is compiled in.
        .executableTarget(
            name: "memprof",
            dependencies: [
                "MemprofCommandLine", "MemprofCore", "MemprofInput", "MemprofWorkload", "MemprofReport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                "MemprofSampler", "MemprofOutput", "MemprofRun",
                "MemprofCompare", "MemprofBudgets", "MemprofExport", "MemprofFleet", "MemprofField", "MemprofCalibrate",
                "MemprofReportReader",
            ]
        ),
        // Sampling profiles as plain data, and their folded-stack and speedscope forms.
        .target(name: "MemprofProfile"),
        // The SIGPROF handler and its sample buffer, in C; libunwind is loaded with dlopen.
        // It also replaces the malloc family for the worker's allocation tracking (alloc_hooks.c):
        // exported from every executable that links it, also the functions no linked library calls.
        .target(name: "CSampler", dependencies: ["CProfilingChannel"],
                linkerSettings: [.unsafeFlags(["malloc", "free", "calloc", "realloc", "posix_memalign", "aligned_alloc",
                                               "memalign", "valloc", "mmap", "mmap64", "munmap"]
                                              .flatMap { ["-Xlinker", "--export-dynamic-symbol=\($0)"] })]),
        // The shared-memory channel between a program memprof runs and memprof (header only).
        .target(name: "CProfilingChannel"),
        // The allocation recorder and sampler preloaded into a program memprof runs (spec §8.1).
        // It is C only and must not load the Swift runtime into the program (whose crash handler
        // would then write Swift's crash report into a C program's standard error): linked without
        // swiftrt.o (-nostartfiles) and against the static runtime, of which it uses nothing.
        .target(name: "CMemprofPreload", dependencies: ["CProfilingChannel"],
                linkerSettings: [.unsafeFlags(["-nostartfiles", "-static-stdlib", "-Xlinker", "--as-needed"])]),
        // Example programs with allocations known to the byte, for tests and the README (§8.1).
        .executableTarget(name: "memprof-example-c", dependencies: ["CProfilingChannel"], cSettings: [.unsafeFlags(["-g", "-fno-omit-frame-pointer"])]),
        .executableTarget(name: "memprof-example-swift"),
        // Work kernels, the work registry, the sampler's Swift API and `SampledWorkPerformer`, and
        // `WorkloadSource.thisBuild`: workloads checked against the kernels and programs this build can run.
        .target(name: "MemprofSampler", dependencies: ["CSampler", "MemprofCore", "MemprofProfile", "CDwarf",
                                                      "MemprofWorkload", "MemprofPlatform"]),
        // elfutils' libdw (Debian's libdw-dev): function names and file:line from ELF and DWARF.
        .systemLibrary(name: "CDwarf", pkgConfig: "libdw", providers: [.apt(["libdw-dev"])]),
        // Sampled vs unsampled runs of one kernel in one process: the sampler's overhead.
        .executableTarget(name: "memprof-bench-sampler", dependencies: ["MemprofSampler", "MemprofProfile"]),
        // OpenSSL's libcrypto, for the SHA-256 of workload text (Debian's libssl-dev): the system's
        // maintained implementation, instead of compiling a TLS stack for one digest.
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // zlib, for gzipped pprof files (Debian's zlib1g-dev).
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // The simulator and report writer on a large generated workload (scripts/bench.sh).
        .executableTarget(name: "memprof-bench", dependencies: ["MemprofCore", "MemprofReport"]),
        // What every test target shares: one process runner, the repository, scratch folders,
        // report fixtures and snapshot comparison. Used by tests only.
        .target(name: "MemprofTestSupport", dependencies: ["MemprofCore", "MemprofWorkload", "MemprofReport", "MemprofPlatform"]),
        .testTarget(name: "MemprofRunTests", dependencies: ["MemprofRun", "MemprofTestSupport", "MemprofWorkload", "MemprofOutput", "MemprofCore", "MemprofReport",
                                                   "MemprofReportReader", "MemprofProfile", "MemprofTrace", "MemprofHTML", "MemprofInput", "MemprofSampler"]),
        .testTarget(name: "MemprofCoreTests", dependencies: ["MemprofCore"]),
        // Also Yams' public composer: `YAMLTree` is held to its nodes, marks and errors.
        .testTarget(name: "MemprofWorkloadTests", dependencies: ["MemprofWorkload", "MemprofCore", "MemprofInput", "MemprofYAMLReader", "MemprofTestSupport",
                                                        .product(name: "Yams", package: "Yams")]),
        .testTarget(name: "MemprofReportTests", dependencies: ["MemprofReportReader", "MemprofReport", "MemprofWorkload", "MemprofTestSupport", "MemprofCore", "MemprofOutput"]),
        // Comparing two reports (read and measured by MemprofReportReader): thresholds, verdicts, and the
        // terminal, Markdown, HTML, JUnit and JSON forms of a comparison.
        .target(
            name: "MemprofCompare",
            dependencies: ["MemprofReportReader", "MemprofCore", "MemprofReport", "MemprofProfile", "MemprofHTML", "MemprofOutput",
                           "MemprofInput", "MemprofYAMLReader"]
        ),
        // Absolute budgets on a report (`memprof check`): the budget file, the check, the events
        // behind a broken budget, and the check's outputs.
        .target(
            name: "MemprofBudgets",
            dependencies: ["MemprofReportReader", "MemprofCompare", "MemprofCore", "MemprofReport", "MemprofOutput", "MemprofHTML", "MemprofInput",
                           "MemprofYAMLReader"]
        ),
        // A report in other viewers' formats (`memprof export`): trace, speedscope, folded, gzipped pprof.
        .target(name: "MemprofExport", dependencies: ["MemprofReportReader", "MemprofReport", "MemprofProfile", "MemprofTrace", "MemprofField", "MemprofOutput", "CZlib"]),
        // The field's formats: JetsamEvent .ips reports written from a report and read
        // back into a workload that replays the kill, and MetricKit payloads.
        .target(name: "MemprofField", dependencies: ["MemprofCore", "MemprofReport", "MemprofWorkload", "MemprofOutput", "MemprofInput"]),
        .testTarget(name: "MemprofFieldTests", dependencies: ["MemprofField", "MemprofCore", "MemprofReport", "MemprofWorkload", "MemprofTestSupport",
                                                      .product(name: "Yams", package: "Yams")],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "MemprofCLITests", dependencies: ["MemprofPlatform", "MemprofReportReader", "MemprofReport", "MemprofTestSupport"]),
        .testTarget(name: "MemprofCompareTests", dependencies: ["MemprofReportReader", "MemprofCompare", "MemprofBudgets", "MemprofExport", "MemprofReport",
                                                        "MemprofCore", "MemprofTrace", "MemprofOutput", "MemprofWorkload", "MemprofHTML",
                                                        "MemprofTestSupport", "MemprofInput", "MemprofProfile"]),
        .testTarget(
            name: "MemprofProfileTests", dependencies: ["MemprofProfile", "MemprofTestSupport"],
            resources: [.copy("Fixtures")]),
        .testTarget(name: "MemprofSamplerTests", dependencies: ["MemprofPlatform", "MemprofSampler", "MemprofProfile", "MemprofTestSupport", "MemprofCore"]),
        // Reports people look at: report.html and the runs index (pure rendering, no I/O but the index
        // scan, which reads each report.json through MemprofReportReader).
        .target(name: "MemprofHTML", dependencies: ["MemprofCore", "MemprofReport", "MemprofReportReader", "MemprofProfile", "MemprofOutput"]),
        // trace.json in the Trace Event Format (Perfetto, chrome://tracing), and lifecycle intervals.
        .target(name: "MemprofTrace", dependencies: ["MemprofCore", "MemprofReport", "MemprofProfile", "MemprofOutput"],
                swiftSettings: hotSinkSettings),
        // `memprof serve`: a read-only HTTP server over a reports folder (Hummingbird), with a guard
        // in front of NIO's HTTP parser that bounds each request (414, 431, 505, 408).
        .target(
            name: "MemprofServe",
            dependencies: [
                "MemprofHTML", "MemprofPlatform",
                .product(name: "Hummingbird", package: "hummingbird", condition: serve),
                .product(name: "HummingbirdCore", package: "hummingbird", condition: serve),
                .product(name: "NIOCore", package: "swift-nio", condition: serve),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: serve),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras", condition: serve),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: serve),
                .product(name: "Logging", package: "swift-log", condition: serve),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: serve),
            ]
        ),
        // The `memprof-serve` executable that `memprof serve` runs.
        .executableTarget(
            name: "memprof-serve",
            dependencies: ["MemprofServe", "MemprofOutput", "MemprofCommandLine",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .testTarget(name: "MemprofHTMLTests", dependencies: ["MemprofHTML", "MemprofReport", "MemprofTestSupport", "MemprofCore", "MemprofOutput", "MemprofProfile"]),
        .testTarget(name: "MemprofTraceTests", dependencies: ["MemprofReportReader", "MemprofTrace", "MemprofWorkload", "MemprofProfile", "MemprofOutput",
                                                      "MemprofTestSupport", "MemprofCore", "MemprofReport"]),
        .testTarget(name: "MemprofServeTests", dependencies: ["MemprofPlatform",
            "MemprofServe", "MemprofTestSupport", "MemprofCore", "MemprofReport",
            .product(name: "NIOCore", package: "swift-nio", condition: serve), .product(name: "NIOEmbedded", package: "swift-nio", condition: serve),
        ]),
        // Fleet sweeps (spec §12): the sweep file, runs on every core, per-metric distributions,
        // fleet.json and runs.csv, shards and merge, paired compare of two fleets, fleet.html.
        .target(name: "MemprofFleet",
                dependencies: ["MemprofCore", "MemprofWorkload", "MemprofReport", "MemprofCompare", "MemprofBudgets",
                               "MemprofSampler", "MemprofOutput", "MemprofHTML", "MemprofField", "MemprofInput",
                               "MemprofYAMLReader", "MemprofReportReader"]),
        .testTarget(name: "MemprofFleetTests", dependencies: ["MemprofFleet", "MemprofField", "MemprofWorkload", "MemprofCompare", "MemprofReportReader",
                                                      "MemprofReport", "MemprofTestSupport", "MemprofCore", "MemprofInput", "MemprofSampler",
                                                      "MemprofOutput"]),
        // Calibration (spec §13): a sweep's unknown parameters fitted to a team's MetricKit field by
        // the method of simulated moments, each evaluation a fleet sweep on common seeds;
        // calibration.json and the calibrated sweep.
        .target(name: "MemprofCalibrate",
                dependencies: ["MemprofCore", "MemprofField", "MemprofFleet", "MemprofInput", "MemprofWorkload", "MemprofOutput",
                               "MemprofReport", "MemprofHTML", "MemprofReportReader"]),
        .testTarget(name: "MemprofCalibrateTests", dependencies: ["MemprofCalibrate", "MemprofField", "MemprofFleet", "MemprofInput", "MemprofTestSupport"],
                    resources: [.copy("Fixtures")]),
        // Fuzz targets over every parser of untrusted input, and a seeded mutation loop;
        // memprof-fuzz runs them, as a libFuzzer binary or the loop (scripts/fuzz.sh).
        .target(name: "MemprofFuzz", dependencies: ["MemprofWorkload", "MemprofCompare", "MemprofReportReader", "MemprofBudgets", "MemprofRun",
                                                    "MemprofReport", "MemprofCore", "MemprofFleet", "MemprofInput", "MemprofYAMLReader", "MemprofField",
                                                    "MemprofCalibrate"]),
        .executableTarget(name: "memprof-fuzz", dependencies: ["MemprofFuzz"]),
    ],
    swiftLanguageModes: [.v6]
)
