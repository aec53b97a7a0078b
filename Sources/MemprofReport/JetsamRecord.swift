import MemprofCore
import MemprofOutput

/// A jetsam snapshot as report.json's stream keeps it while the run goes: its numbers, 8 bytes
/// each (little-endian): the time, the killed app, the exit reason, the largest app, the page
/// size and the number of processes, then per process its app, its priority, its resident pages
/// and its state, audio, whether it has a priority and its process kind (0 for an app) in one word;
/// then whether it has the compressor's counters (1) or not (0), and if so its pages,
/// uncompressed pages, compressions and decompressions; then the processes left unlisted and
/// their pages (0 and 0 when every process is listed).
enum JetsamRecord {
    private static let reasons = ExitReason.allCases
    private static let states = AppState.allCases
    private static let kinds = ProcessKind.allCases

    static func write(_ j: JetsamSnapshot, into out: inout JSONRecord) {
        out.int64Bytes(j.atUs)
        out.int64Bytes(Int64(j.killed))
        out.int64Bytes(Int64(reasons.firstIndex(of: j.exitReason)!))
        out.int64Bytes(Int64(j.largestProcess))
        out.int64Bytes(j.pageSize)
        out.int64Bytes(Int64(j.processes.count))
        for p in j.processes {
            out.int64Bytes(Int64(p.app))
            out.int64Bytes(Int64(p.priority ?? 0))
            out.int64Bytes(p.rpages)
            let kind = p.kind.map { kinds.firstIndex(of: $0)! + 1 } ?? 0
            let flags = states.firstIndex(of: p.state)! | (p.playingAudio ? 1 << 8 : 0) | (p.priority != nil ? 1 << 9 : 0)
                | kind << 10
            out.int64Bytes(Int64(flags))
        }
        if let c = j.compressor {
            out.int64Bytes(1)
            out.int64Bytes(c.pages)
            out.int64Bytes(c.uncompressedPages)
            out.int64Bytes(c.compressions)
            out.int64Bytes(c.decompressions)
        } else {
            out.int64Bytes(0)
        }
        out.int64Bytes(Int64(j.unlisted?.processes ?? 0))
        out.int64Bytes(j.unlisted?.rpages ?? 0)
    }

    /// Reads the record at `at` into `j` (reusing its processes' storage) and moves `at` past it;
    /// false when the bytes are not such a record (a spill file changed under the run).
    static func read(_ raw: UnsafeRawBufferPointer, at: inout Int, into j: inout JetsamSnapshot, apps: Int) -> Bool {
        var position = at
        func next() -> Int64? {
            guard position + 8 <= raw.count else { return nil }
            defer { position += 8 }
            return Int64(littleEndian: raw.loadUnaligned(fromByteOffset: position, as: Int64.self))
        }
        func index(_ value: Int64?, below count: Int) -> Int? {
            guard let value, value >= 0, value < count else { return nil }
            return Int(value)
        }
        guard let atUs = next(), let killed = index(next(), below: apps), let reason = index(next(), below: reasons.count),
            let largest = index(next(), below: apps), let pageSize = next(), let count = index(next(), below: apps + 1)
        else { return false }
        j.atUs = atUs
        j.killed = killed
        j.exitReason = reasons[reason]
        j.largestProcess = largest
        j.pageSize = pageSize
        j.processes.removeAll(keepingCapacity: true)
        for _ in 0..<count {
            guard let app = index(next(), below: apps), let priority = next(), let rpages = next(), let flags = next(),
                let state = index(flags & 0xff, below: states.count), let kind = index(flags >> 10, below: kinds.count + 1)
            else { return false }
            j.processes.append(JetsamSnapshot.Process(app: app, priority: flags & (1 << 9) != 0 ? Int(priority) : nil,
                                                      rpages: rpages, state: states[state],
                                                      playingAudio: flags & (1 << 8) != 0,
                                                      kind: kind == 0 ? nil : kinds[kind - 1]))
        }
        switch next() {
        case 0: j.compressor = nil
        case 1:
            guard let pages = next(), let uncompressed = next(), let compressions = next(), let decompressions = next()
            else { return false }
            j.compressor = JetsamEvent.Compressor(pages: pages, uncompressedPages: uncompressed, compressions: compressions,
                                                  decompressions: decompressions)
        default: return false
        }
        guard let unlisted = index(next(), below: Int.max), let unlistedPages = next() else { return false }
        j.unlisted = unlisted > 0 ? JetsamEvent.Unlisted(processes: unlisted, rpages: unlistedPages) : nil
        at = position
        return true
    }
}
