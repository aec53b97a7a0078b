import Testing
@testable import MemprofCore

/// The device table's invariants: every preset's figures agree with each other and with their sources.
struct DeviceCatalogTests {
    let models = DeviceModel.catalog

    @Test func namesAreUniqueLowercaseHyphenWords() {
        let names = Device.presets.map(\.name)
        #expect(Set(names).count == names.count)
        for name in names {
            #expect(name.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" }, "\(name)")
        }
        #expect(Array(names.prefix(3)) == ["iphone-6-plus", "ipad-air-2", "macbook-pro-2015"])
        #expect(Device.presets.count == models.count + 1, "every model is a preset, plus the Mac")
    }

    @Test func theReferencePresetsAreUnchanged() {
        #expect(Device.preset(named: "iphone-6-plus") == Device(
            name: "iphone-6-plus", platform: .ios, ram: 1 * .gigabyte, systemReserved: 300 * .megabyte,
            appLimit: 645 * .megabyte, flash: 256 * .megabyte, flashReadRate: 200 * .megabyte,
            pageSize: 4 * .kilobyte, cpuScale: 4.0, osVersion: "iOS 8.4.1 (12H321)"))
        #expect(Device.preset(named: "ipad-air-2") == Device(
            name: "ipad-air-2", platform: .ios, ram: 2 * .gigabyte, systemReserved: 450 * .megabyte,
            appLimit: 1383 * .megabyte, flash: 512 * .megabyte, flashReadRate: 400 * .megabyte,
            pageSize: 16 * .kilobyte, cpuScale: 3.0, osVersion: "iOS 10.2.1 (14D27)"))
        #expect(Device.preset(named: "macbook-pro-2015") == Device(
            name: "macbook-pro-2015", platform: .macos, ram: 8 * .gigabyte, systemReserved: 2 * .gigabyte,
            appLimit: 8 * .gigabyte, flash: 16 * .gigabyte, flashReadRate: 1500 * .megabyte,
            pageSize: 4 * .kilobyte, cpuScale: 1.5))
    }

    @Test func everyIPhoneFromThe6sToThe17ProMaxIsThere() {
        let wanted = ["6s", "6s-plus", "se", "7", "7-plus", "8", "8-plus", "x", "xr", "xs", "xs-max", "11", "11-pro",
                      "11-pro-max", "se-2", "12-mini", "12", "12-pro", "12-pro-max", "13-mini", "13", "13-pro",
                      "13-pro-max", "se-3", "14", "14-plus", "14-pro", "14-pro-max", "15", "15-plus", "15-pro",
                      "15-pro-max", "16", "16-plus", "16-pro", "16-pro-max", "16e", "17", "air", "17-pro",
                      "17-pro-max"].map { "iphone-" + $0 }
        for name in wanted { #expect(Device.preset(named: name) != nil, "\(name)") }
        // An iPad of every year from 2015 to 2024 but 2023, when Apple released none.
        let ipadYears = Set(models.filter { $0.name.hasPrefix("ipad") }.map(\.year))
        #expect(ipadYears.isSuperset(of: [2015, 2016, 2017, 2018, 2019, 2020, 2021, 2022, 2024]))
    }

    @Test func limitsFitTheirDevice() {
        for m in models {
            let d = m.device
            #expect(d.platform == .ios)
            #expect(d.ram > d.appLimit, "\(d.name): RAM above the app limit")
            #expect(d.appLimit <= d.appMemory, "\(d.name): one app at its limit fits in app memory")
            #expect(d.systemReserved > 0 && d.flash > 0 && d.flashReadRate > 0 && d.cpuScale > 0)
            // The lowest share is the 12 GB iPhones' (3375 MB, 27.5%).
            #expect(d.appLimit * 4 >= d.ram, "\(d.name): no published limit is under 25% of RAM")
            for e in m.earlierLimits {
                #expect(e.limit > 0 && e.limit <= d.appMemory, "\(d.name): an earlier limit fits in app memory")
            }
        }
    }

    @Test func pagesAre16KBFromTheA9() {
        for m in models {
            let a8 = m.chip == "A8"
            #expect(m.device.pageSize == (a8 ? 4 : 16) * .kilobyte, "\(m.name) (\(m.chip))")
        }
    }

    @Test func everyProductIdentifierMapsToOnePreset() {
        var owner: [String: String] = [:]
        for m in models {
            #expect(!m.products.isEmpty, "\(m.name)")
            // A larger-RAM preset of the same model (its 1 TB storage) shares its identifiers,
            // which name the smaller, listed first.
            let smaller = m.name.hasSuffix("-1tb") ? DeviceModel.named(String(m.name.dropLast(4))) : nil
            for p in m.products {
                if let smaller, smaller.products.contains(p) {
                    #expect(DeviceModel.product(p)?.name == smaller.name, "\(p)")
                    continue
                }
                #expect(owner[p] == nil, "\(p) is \(owner[p] ?? "") and \(m.name)")
                owner[p] = m.name
                let family = m.name.hasPrefix("iphone") ? "iPhone" : "iPad"
                let numbers = p.dropFirst(family.count).split(separator: ",")
                #expect(p.hasPrefix(family) && numbers.count == 2 && numbers.allSatisfy { Int($0) != nil }, "\(p)")
                #expect(DeviceModel.product(p)?.name == m.name)
            }
        }
        #expect(DeviceModel.product("iPhone15,4")?.name == "iphone-15")
        #expect(DeviceModel.product("iPhone99,9") == nil)
    }

    @Test func derivedLimitsComeFromAMeasuredModelWithTheSameRAM() {
        var derived = 0
        for m in models {
            switch m.limit {
            case .measured(_, let os, let source):
                #expect(!os.isEmpty && !source.location.isEmpty, "\(m.name)")
            case .derived(let basis, let rule):
                derived += 1
                #expect(!rule.isEmpty)
                guard let b = DeviceModel.named(basis) else {
                    // A basis that is not a preset names the published figure in its rule.
                    #expect(rule.contains("https://"), "\(m.name): \(rule)")
                    continue
                }
                #expect(!b.limit.isDerived, "\(m.name) is derived from \(basis), itself derived")
                #expect(b.device.ram == m.device.ram, "\(m.name) and \(basis) have the same RAM")
                #expect(b.device.appLimit == m.device.appLimit)
                #expect(b.name.hasPrefix("iphone") == m.name.hasPrefix("iphone"), "same family")
            }
        }
        #expect(derived > 0 && derived < models.count)
    }

    @Test func osVersionsNameAVersionAndThePresetRunsItsLatest() {
        for m in models {
            #expect(Device.version(m.shippedOS + ".0") != nil, "\(m.name): \(m.shippedOS)")
            #expect(Device.version(m.latestOS) != nil, "\(m.name): \(m.latestOS)")
            let os = m.device.osVersion ?? ""
            #expect(Device.version(os) != nil, "\(m.name): \(os)")
            #expect(Device.majorVersion(m.shippedOS + ".0")! <= Device.majorVersion(m.latestOS)!)
            // The A8 models and the reference iPad keep the OS their limit was measured on.
            if !["A8", "A8X"].contains(m.chip) { #expect(os == m.latestOS, "\(m.name)") }
        }
    }

    @Test func namedFindsModifiedPresets() {
        #expect(DeviceModel.named("iphone-15 (modified)")?.model == "iPhone 15")
        #expect(DeviceModel.named("custom") == nil)
        #expect(DeviceModel.named("macbook-pro-2015") == nil)
    }
}
