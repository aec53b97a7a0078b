import MemprofCore
import MemprofWorkload
import Testing

/// The workload keys of field fidelity: a device's `osVersion`, and a handler's `locksFile` and `cpu`.
@Suite struct FieldKeysTests {
    @Test func handlersDeclareFileLocksAndCPU() throws {
        let w = try parse(minimal.replacingOccurrences(of: "fetch: {interval: 15m, time: 4s}",
                                                       with: "fetch: {interval: 15m, time: 4s, locksFile: true, cpu: 90%}"))
        let fetch = try #require(w.apps.first { $0.id == "mail" }?.fetch?.handler)
        #expect(fetch.locksFile)
        #expect(fetch.cpu == 0.9)
        #expect(w.apps.first { $0.id == "safari" }?.push == nil)
    }

    @Test func badValuesAreLocated() {
        let cpu = error(of: minimal.replacingOccurrences(of: "time: 4s}", with: "time: 4s, cpu: ninety}"))
        #expect(cpu?.description == "commute.yaml:11:43: apps.mail.fetch.cpu: 'ninety' is not a percentage such as 5%")
        let lock = error(of: minimal.replacingOccurrences(of: "time: 4s}", with: "time: 4s, locksFile: maybe}"))
        #expect(lock?.keyPath == "apps.mail.fetch.locksFile")
        let os = error(of: minimal.replacingOccurrences(of: "device: iphone-6-plus", with: "device: {preset: iphone-6-plus, osVersion: latest}"))
        #expect(os?.description.contains("device.osVersion: 'latest' names no version") == true, "\(String(describing: os))")
    }

    /// `device.product` names the hardware a report came from; anything else is refused, located.
    @Test func aDeviceNamesItsHardwareIdentifier() throws {
        let w = try parse(minimal.replacingOccurrences(of: "device: iphone-6-plus",
                                                       with: "device: {preset: iphone-6-plus, product: \"iPhone7,2\"}"))
        #expect(w.device.product == "iPhone7,2")
        #expect(try parse(minimal).device.product == nil, "a preset names no product of its own")
        for bad in ["iPhone", "7,2", "iPhone7,2\\nseed: 42", "iPhone12,1,3", "iPhone12345,1"] {
            let e = error(of: minimal.replacingOccurrences(of: "device: iphone-6-plus",
                                                           with: "device: {preset: iphone-6-plus, product: \"\(bad)\"}"))
            #expect(e?.keyPath == "device.product" && e?.line == 5, "\(bad): \(String(describing: e))")
        }
    }

    @Test func presetsNameTheirOSAndTheA8HasFourKilobytePages() throws {
        let phone = try #require(Device.preset(named: "iphone-6-plus"))
        #expect(phone.osVersion == "iOS 8.4.1 (12H321)" && phone.osMajor == 8)
        #expect(phone.pageSize == 4096)
        #expect(Device.preset(named: "ipad-air-2")?.osVersion == "iOS 10.2.1 (14D27)")
        let limit: Bytes = 1383 * .megabyte
        #expect(Device.preset(named: "ipad-air-2")!.appLimit == limit)
    }
}
