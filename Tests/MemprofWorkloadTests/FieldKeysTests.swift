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

    /// A preset's `osVersion` is one the model runs (the iPhone 6 Plus: iOS 8 to 12); one it
    /// never ran, or a version Apple skipped, is refused where it is written. Without a preset any
    /// version goes.
    @Test func aPresetRunsOnlyItsOwnVersions() throws {
        func device(_ text: String) -> String {
            minimal.replacingOccurrences(of: "device: iphone-6-plus", with: "device: {\(text)}")
        }
        for ok in ["iOS 8.0", "iOS 9.3", "iOS 12.5.8 (16H88)"] {
            #expect(try parse(device("preset: iphone-6-plus, osVersion: \"\(ok)\"")).device.osMajor != nil, "\(ok)")
        }
        #expect(error(of: device("preset: iphone-6-plus, osVersion: \"iOS 18.0\""))?.description
            == "commute.yaml:5:44: device.osVersion: the iPhone 6 Plus runs iOS 8 to iOS 12.5.8 (16H88), not 'iOS 18.0'; "
            + "for another era's numbers on this hardware, describe the device without a preset")
        #expect(error(of: device("preset: iphone-15, osVersion: \"iOS 16.7\""))?.keyPath == "device.osVersion")
        #expect(try parse(device("preset: iphone-15, osVersion: \"iOS 17.0\"")).device.osMajor == 17)
        #expect(error(of: device("preset: iphone-15, osVersion: \"iOS 19.0\""))?.description
            == "commute.yaml:5:40: device.osVersion: 'iOS 19.0' names no released iOS: after iOS 18 came iOS 26")
        let custom = "ram: 1GB, systemReserved: 300MB, appLimit: 645MB, flash: 256MB, flashReadRate: 200MB/s, osVersion: \"iOS 18.0\""
        #expect(try parse(device(custom)).device.osMajor == 18)
        // Every model's versions read as a range.
        #expect(DeviceModel.catalog.allSatisfy { $0.supportedMajors != nil })
        #expect(DeviceModel.named("iphone-15")?.supportedMajors == 17...27)
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
