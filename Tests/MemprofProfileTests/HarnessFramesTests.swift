import Foundation
@testable import MemprofProfile
import Testing

@Suite struct HarnessFramesTests {
    @Test func harnessNamesAreFoundWhereverTheMarkerIs() {
        let names = [
            "", "_", "__clon", "__clone", "__clone3", "x__clone", "start_thread", "start_threa", "Start_thread",
            "closure #1 in MemprofSampler.WorkerThread.run()", "MemprofSampler.WorkerThrea",
            "MemprofSampler.SamplingSession.performLocked(kernel:)", "MemprofSampler.WorkRegistry",
            "$s10Foundation6ThreadC4mainyyF", "Foundation.Thread.main()", "NSThreadStart", "NSThreadStar",
            "MemprofSampler.ChecksumKernel.crc32Update", "naïve — MemprofSampler.WorkRegistry.kernel ✓",
            "MMemprofSampler.WorkerThread", "memprofsampler.workerthread",
        ]
        for name in names {
            // Foundation's substring search, the reference.
            let expected = HarnessFrames.markers.contains { name.range(of: $0, options: .literal) != nil }
            #expect(HarnessFrames.isHarness(name) == expected, "\(name)")
        }
        #expect(HarnessFrames.isHarness("start_thread"))
        #expect(!HarnessFrames.isHarness("main"))
    }
}
