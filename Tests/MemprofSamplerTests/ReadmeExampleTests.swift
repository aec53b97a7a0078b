import Foundation
import MemprofCore
import MemprofProfile
import Testing
@testable import MemprofSampler

/// The README's "register your own work" example, run through a whole simulation.
enum Thumbnailer {
    @inline(never)
    static func render(bytes: Int64) {
        var state: UInt64 = 0x9E37_79B9
        for i in 0..<max(1, bytes / 8) {
            state = scale(state, UInt64(i))
        }
        precondition(state != 1)
    }

    @inline(never)
    static func scale(_ state: UInt64, _ i: UInt64) -> UInt64 {
        (state &* 6_364_136_223_846_793_005 &+ i) ^ (state >> 17)
    }
}

@Suite(.serialized) struct ReadmeExampleTests {
    @Test func registeredWorkRunsInASimulationAndIsSampled() throws {
        WorkRegistry.register(name: "thumbnails", summary: "scale 200 photos") { sizeBytes in
            Thumbnailer.render(bytes: sizeBytes)
        }
        defer { WorkRegistry.unregister(name: "thumbnails") }
        let app = AppSpec(id: "photos", launchFootprint: 30 * .megabyte,
                          backgroundTask: BackgroundTaskSpec(handler: HandlerSpec(
                              timeUs: 60 * .second, work: WorkSpec(kernel: "thumbnails", sizeBytes: 400_000_000))))
        let other = AppSpec(id: "notes", launchFootprint: 20 * .megabyte)
        let workload = Workload(name: "readme", durationUs: 5 * .minute, device: Device.preset(named: "iphone-6-plus")!,
                                apps: [app, other],
                                script: [ScriptEntry(atUs: 0, action: .open(0)), ScriptEntry(atUs: 10 * .second, action: .open(1))])
        let performer = SampledWorkPerformer(rateHz: 997)
        var simulator = Simulator(workload: workload, options: .init(performer: performer))
        let result = simulator.run()
        #expect(result.summary.backgroundTasks.completed == 1)
        let profile = performer.makeProfile()
        let handler = try #require(profile.handlers.first)
        #expect(handler.app == "photos")
        #expect(handler.handler == "backgroundTask")
        #expect(handler.kernel == "thumbnails")
        #expect(handler.samples > 0)
        let folded = profile.makeFoldedStacks()
        #expect(folded.contains("Thumbnailer.render"))
    }
}
