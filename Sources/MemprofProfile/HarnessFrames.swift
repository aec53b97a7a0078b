/// memprof's own frames between a sampled thread's start and the work it runs: the thread entry,
/// the worker loop, the sampling session's locking closures and the registry's kernel closures.
/// The one list both readers use: report.html hides every frame up to the last of these by
/// default (a toggle shows them), and stack files leave them out.
public enum HarnessFrames {
    static let markers = ["MemprofSampler.WorkerThread", "MemprofSampler.SamplingSession", "MemprofSampler.WorkRegistry",
                          "NSThreadStart", "Foundation.Thread.main", "start_thread", "__clone"]

    static let markerBytes: [[UInt8]] = markers.map { Array($0.utf8) }

    /// Whether `name` contains one of the markers, compared byte for byte in UTF-8 (every sample's
    /// every frame is asked: Foundation's `contains` cost a fifth of a sampled run's CPU).
    public static func isHarness(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { text in markerBytes.contains { contains(text, $0) } }
    }

    static func contains(_ text: UnsafeBufferPointer<UInt8>, _ marker: [UInt8]) -> Bool {
        guard let first = marker.first, marker.count <= text.count else { return false }
        var start = 0
        let lastStart = text.count - marker.count
        while start <= lastStart {
            if text[start] == first {
                var matched = 1
                while matched < marker.count && text[start + matched] == marker[matched] { matched += 1 }
                if matched == marker.count { return true }
            }
            start += 1
        }
        return false
    }

    /// Where the work starts in a stack listed root first: the index after its last harness frame
    /// (0 when it has none).
    public static func workStart(_ names: some BidirectionalCollection<String>) -> Int {
        var index = 0, last: Int?
        for name in names {
            if isHarness(name) { last = index }
            index += 1
        }
        return (last ?? -1) + 1
    }

    /// A stack without its harness (root first); a stack that is all harness is kept whole.
    public static func work(_ frames: [Frame]) -> [Frame] {
        let start = workStart(frames.lazy.map(\.name))
        return start < frames.count ? Array(frames[start...]) : frames
    }
}
