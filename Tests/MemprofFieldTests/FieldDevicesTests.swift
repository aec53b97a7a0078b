import MemprofCore
import Testing
@testable import MemprofField

/// The product table `memprof import` reads is the device presets' table.
struct FieldDevicesTests {
    @Test func everyPresetIdentifierIsKnownOnce() {
        // Every identifier of the presets, once, in the catalog's order: the 16 GB iPad Pro's are
        // its 8 GB sibling's.
        var products: [String] = []
        for p in DeviceModel.catalog.flatMap(\.products) where !products.contains(p) { products.append(p) }
        #expect(FieldProduct.known.map(\.product) == products)
        #expect(FieldProduct.named("iPad16,3")?.preset == "ipad-pro-11-m4" && products.count > 90)
    }

    @Test func limitsCarryTheOSTheyWereMeasuredOnOrAreDerived() throws {
        let eleven = try #require(FieldProduct.named("iPhone12,1"))
        #expect(eleven.ram == 4 * .gigabyte && eleven.appLimit == 2068 * .megabyte && eleven.appLimitOS == "iOS 13.1.3")
        #expect(eleven.preset == "iphone-11" && eleven.model == "iPhone 11")
        let eight = try #require(FieldProduct.named("iPhone10,4"))
        #expect(eight.appLimit == 1400 * .megabyte && eight.appLimitOS == "iOS 11.4.1")
        let fourteen = try #require(FieldProduct.named("iPhone14,7"))
        #expect(fourteen.ram == 6 * .gigabyte && fourteen.appLimitOS == nil && fourteen.appLimitIsDerived)
        #expect(fourteen.appLimit == Device.preset(named: "iphone-13-pro")?.appLimit, "derived from the iPhone 13 Pro")
        #expect(!eleven.appLimitIsDerived)
        #expect(FieldProduct.named("iPad8,2")?.ram == 6 * .gigabyte)
        #expect(FieldProduct.named("iPhone7,2")?.appLimit == 645 * .megabyte)
        #expect(FieldProduct.named("iPhone16,2")?.ram == 8 * .gigabyte)
        #expect(FieldProduct.named("Watch7,1") == nil)
    }

    @Test func presetsWriteTheirFirstIdentifierAndTheirOS() throws {
        let fifteen = try #require(Device.preset(named: "iphone-15"))
        #expect(FieldIdentity.of(fifteen) == FieldIdentity(product: "iPhone15,4", osVersion: "iPhone OS 27.0"))
        var modified = fifteen
        modified.name = "iphone-15 (modified)"
        modified.osVersion = "iOS 18.5 (22F76)"
        #expect(FieldIdentity.of(modified) == FieldIdentity(product: "iPhone15,4", osVersion: "iPhone OS 18.5 (22F76)"))
        let ipad = try #require(Device.preset(named: "ipad-air-3"))
        #expect(FieldIdentity.of(ipad) == FieldIdentity(product: "iPad11,3", osVersion: "iPhone OS 26.5"))
        #expect(FieldIdentity.of(try #require(Device.preset(named: "iphone-6-plus"))).product == "iPhone7,1")
        #expect(FieldIdentity.of(try #require(Device.preset(named: "ipad-air-2"))).product == "iPad5,3")
        #expect(FieldIdentity.of(try #require(Device.preset(named: "macbook-pro-2015"))).product == "MacBookPro11,4")
    }
}
