/// A JetsamEvent report (`bug_type` 298) as iOS writes it: a first line of JSON header, then a
/// JSON body — or, before iOS 10, the same moment as a text LowMemory report (see
/// ``LowMemoryReportReader``). Only the fields memprof reads or writes are kept; the README lists
/// them, and the ones left out, with the reason.
public struct JetsamReport: Sendable, Equatable {
    /// The form the report was read from.
    public enum Format: String, Sendable, Equatable {
        /// `.ips`: a JSON header line and a JSON body.
        case ips
        /// The text LowMemory report of iOS 7 to 9 (`Incident Identifier:` …, a `Processes` table).
        case lowMemoryText
    }

    /// The first line: `{"bug_type":"298","timestamp":…,"os_version":…,"incident_id":…}`.
    public struct Header: Sendable, Equatable {
        public var bugType: String
        public var timestamp: String
        public var osVersion: String
        public var incidentID: String

        public init(bugType: String = "298", timestamp: String, osVersion: String, incidentID: String) {
            self.bugType = bugType
            self.timestamp = timestamp
            self.osVersion = osVersion
            self.incidentID = incidentID
        }
    }

    /// `memoryStatus.memoryPages`: the device's physical pages by kind.
    public struct MemoryPages: Sendable, Equatable {
        public var active: Int64
        public var inactive: Int64
        public var speculative: Int64
        public var throttled: Int64
        public var free: Int64
        public var wired: Int64
        public var purgeable: Int64
        public var anonymous: Int64
        public var fileBacked: Int64
        /// The keys a producer does not know and leaves out of what it writes (`inactive`,
        /// `speculative`, `throttled`, `purgeable`, `fileBacked` in memprof's exports); their values
        /// are then not written. Empty for a report read.
        public var omitted: Set<String> = []

        public init(active: Int64, inactive: Int64 = 0, speculative: Int64 = 0, throttled: Int64 = 0, free: Int64,
                    wired: Int64, purgeable: Int64 = 0, anonymous: Int64, fileBacked: Int64) {
            self.active = active
            self.inactive = inactive
            self.speculative = speculative
            self.throttled = throttled
            self.free = free
            self.wired = wired
            self.purgeable = purgeable
            self.anonymous = anonymous
            self.fileBacked = fileBacked
        }

        /// Every page the kernel counts as physical memory (the compressor's pages are added by
        /// the caller): free, active, inactive, speculative, throttled and wired.
        public var physical: Int64 { free + active + inactive + speculative + throttled + wired }
    }

    public struct MemoryStatus: Sendable, Equatable {
        /// Bytes per page (`memoryStatus.pageSize` from iOS 13; before, a top-level `pageSize`).
        public var pageSize: Int64
        /// Pages the compressor occupies.
        public var compressorSize: Int64?
        /// Pages stored in the compressor, counted uncompressed.
        public var uncompressed: Int64?
        /// Pages compressed and decompressed since boot (iOS's counters; an exported report: since the
        /// start of the run, at the moment of the kill).
        public var compressions: Int64?
        public var decompressions: Int64?
        public var memoryPages: MemoryPages?

        public init(pageSize: Int64, compressorSize: Int64? = nil, uncompressed: Int64? = nil,
                    memoryPages: MemoryPages? = nil) {
            self.pageSize = pageSize
            self.compressorSize = compressorSize
            self.uncompressed = uncompressed
            self.memoryPages = memoryPages
        }
    }

    public struct Process: Sendable, Equatable {
        public var pid: Int?
        public var name: String
        /// In iOS's words: `frontmost`, `active`, `suspended`, `frozen`, `audio`, `resume`,
        /// `daemon`, `idle`…
        public var states: [String]
        /// The jetsam band.
        public var priority: Int?
        /// Resident pages.
        public var rpages: Int64
        /// The most pages it was ever resident with.
        public var lifetimeMax: Int64?
        /// The text reports' `recent_max`: the most pages it was resident with lately.
        public var recentMax: Int64?
        /// On a killed process: why (`vm-pageshortage`, `per-process-limit`, `highwater`…).
        public var reason: String?
        public var killDelta: Int64?
        /// Where the process's entry starts in the file it was read from (0 when built in memory).
        public var line: Int = 0
        public var column: Int = 0

        public init(pid: Int?, name: String, states: [String], priority: Int?, rpages: Int64,
                    lifetimeMax: Int64? = nil, reason: String? = nil, killDelta: Int64? = nil) {
            self.pid = pid
            self.name = name
            self.states = states
            self.priority = priority
            self.rpages = rpages
            self.lifetimeMax = lifetimeMax
            self.reason = reason
            self.killDelta = killDelta
        }

        public static func == (a: Process, b: Process) -> Bool {
            a.pid == b.pid && a.name == b.name && a.states == b.states && a.priority == b.priority
                && a.rpages == b.rpages && a.lifetimeMax == b.lifetimeMax && a.recentMax == b.recentMax && a.reason == b.reason
                && a.killDelta == b.killDelta
        }
    }

    public var format: Format = .ips
    public var header: Header
    /// The kernel's version string (`kernel`, the text reports' `Kernel Version:`).
    public var kernel: String?
    /// The hardware model, for example `iPhone7,1`.
    public var product: String?
    /// The OS and its build, for example `iPhone OS 9.3.5 (13G36)`.
    public var build: String?
    public var incident: String?
    public var date: String?
    public var memoryStatus: MemoryStatus
    public var largestProcess: String?
    public var processes: [Process]
    /// `crashReporterKey`: the device's anonymous id.
    public var crashReporterKey: String?
    /// `timeDelta`: seconds from the snapshot to the report.
    public var timeDelta: Int64?
    /// `genCounter`: the snapshot's generation.
    public var genCounter: Int64?

    public init(header: Header, product: String?, build: String?, incident: String? = nil, date: String? = nil,
                memoryStatus: MemoryStatus, largestProcess: String?, processes: [Process]) {
        self.header = header
        self.product = product
        self.build = build
        self.incident = incident
        self.date = date
        self.memoryStatus = memoryStatus
        self.largestProcess = largestProcess
        self.processes = processes
    }

    /// The processes killed at this moment, in file order.
    public var killed: [Process] { processes.filter { $0.reason != nil } }
}
