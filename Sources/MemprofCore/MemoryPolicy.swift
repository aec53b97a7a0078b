/// What a policy sees of an app when it decides (spec §5).
public struct PolicyCandidate: Sendable, Hashable {
    public var index: Int
    public var state: AppState
    public var footprint: Bytes
    /// When the app was last in the foreground (its leaving time), for least-recently-used order.
    public var lastForegroundUs: Microseconds
    public var isPlayingAudio: Bool
}

/// Decides compression and the order of reclaiming (spec §5). One type per policy.
public protocol MemoryPolicy: Sendable {
    var settings: PolicySettings { get }

    /// Whether an app that has just been suspended with `footprint` goes to flash.
    func shouldCompress(footprint: Bytes, compressedUsed: Bytes, flash: Bytes) -> Bool

    /// The apps to evict or kill, in order, when a demand does not fit. The demanding app and
    /// apps that may never be taken (compressed ones) are already left out of `candidates`.
    func reclaimOrder(_ candidates: [PolicyCandidate]) -> [PolicyCandidate]
}

/// The reference text's rule (spec §5 `seed-2015`).
public struct Seed2015Policy: MemoryPolicy {
    public let settings: PolicySettings

    public init(settings: PolicySettings = .seed2015) {
        self.settings = settings
    }

    /// Strictly under the threshold, and only if the compressed store has room.
    public func shouldCompress(footprint: Bytes, compressedUsed: Bytes, flash: Bytes) -> Bool {
        footprint < settings.compressionThreshold && compressedUsed + footprint <= flash
    }

    /// Suspended apps first, then background apps with audio last; within each group least
    /// recently in the foreground first, or largest first (ties by recency) with `largest`.
    public func reclaimOrder(_ candidates: [PolicyCandidate]) -> [PolicyCandidate] {
        func group(_ c: PolicyCandidate) -> Int {
            switch c.state {
            case .suspended: 0
            case .background: c.isPlayingAudio ? 2 : 1
            default: 3
            }
        }
        let order = settings.evictionOrder
        return candidates.filter { $0.state == .suspended || $0.state == .background }.sorted { a, b in
            let (ga, gb) = (group(a), group(b))
            if ga != gb { return ga < gb }
            if order == .largest, a.footprint != b.footprint { return a.footprint > b.footprint }
            if a.lastForegroundUs != b.lastForegroundUs { return a.lastForegroundUs < b.lastForegroundUs }
            return a.index < b.index
        }
    }
}

public enum PolicyFactory {
    /// The policy implementation for resolved settings.
    public static func makePolicy(_ settings: PolicySettings) -> any MemoryPolicy {
        Seed2015Policy(settings: settings)
    }
}
