/// The iPhones, from the A8 to the A19 Pro. Identifiers are DeviceKit's (``DeviceSources/deviceKit``);
/// every A9-and-later model pages by 16 KB (``DeviceSources/pageSize16K``); `shippedOS` is the
/// major release current at launch; `osVersion` is the last release the model runs, except for
/// the A8 models, which keep the iOS their limit was measured on. Each entry names the source of
/// its RAM and of its limit; a derived limit names the measured model it comes from.
extension DeviceModel {
    static let iPhones: [DeviceModel] = [
        iPhone6Plus, iPhone6, iPhone6s, iPhone6sPlus, iPhoneSE, iPhone7, iPhone7Plus, iPhone8, iPhone8Plus, iPhoneX,
        iPhoneXS, iPhoneXSMax, iPhoneXR, iPhone11, iPhone11Pro, iPhone11ProMax, iPhoneSE2,
        iPhone12Mini, iPhone12, iPhone12Pro, iPhone12ProMax, iPhone13Mini, iPhone13, iPhone13Pro, iPhone13ProMax,
        iPhoneSE3, iPhone14, iPhone14Plus, iPhone14Pro, iPhone14ProMax, iPhone15, iPhone15Plus, iPhone15Pro,
        iPhone15ProMax, iPhone16, iPhone16Plus, iPhone16Pro, iPhone16ProMax, iPhone16e, iPhone17, iPhoneAir,
        iPhone17Pro, iPhone17ProMax,
    ]

    static let iOS15Last = "iOS 15.8.8", iOS16Last = "iOS 16.7.16", iOS18Last = "iOS 18.7.9", iOS27 = "iOS 27.0"

    /// The reference text's iPhone (device values unchanged): 1 GB; 645 MB measured on iOS 8.x
    /// (the budget table's "iPhone6+: 645MB/1024MB/62% (iOS 8.x)"); 4 KB pages (the A8), as
    /// published iPhone 6 Plus and iPhone 6 jetsam reports show.
    static let iPhone6Plus = DeviceModel(
        device: Device(name: "iphone-6-plus", platform: .ios, ram: 1 * .gigabyte, systemReserved: 300 * .megabyte,
                       appLimit: 645 * .megabyte, flash: 256 * .megabyte, flashReadRate: 200 * .megabyte,
                       pageSize: 4 * .kilobyte, cpuScale: 4.0, osVersion: "iOS 8.4.1 (12H321)"),
        model: "iPhone 6 Plus", products: ["iPhone7,1"], year: 2014, chip: "A8", ramSource: DeviceSources.referenceText,
        limit: .measured(method: .crashTest, os: "iOS 8.x", source: DeviceSources.memoryBudgetTable),
        shippedOS: "iOS 8", latestOS: "iOS 12.5.8 (16H88)", latestOSSource: DeviceSources.iOS1258)
    /// Like the iPhone 6 Plus: "iPhone6: 645MB/1024MB/62% (iOS 8.x)"; 4 KB pages; on the iOS its
    /// limit was measured on, as the 6 Plus preset is.
    static let iPhone6 = DeviceModel(
        device: Device(name: "iphone-6", platform: .ios, ram: 1 * .gigabyte, systemReserved: 300 * .megabyte,
                       appLimit: 645 * .megabyte, flash: 256 * .megabyte, flashReadRate: 200 * .megabyte,
                       pageSize: 4 * .kilobyte, cpuScale: 4.0, osVersion: "iOS 8.4.1 (12H321)"),
        model: "iPhone 6", products: ["iPhone7,2"], year: 2014, chip: "A8", ramSource: DeviceSources.memoryBudgetTable,
        limit: .measured(method: .crashTest, os: "iOS 8.x", source: DeviceSources.memoryBudgetTable),
        shippedOS: "iOS 8", latestOS: "iOS 12.5.8 (16H88)", latestOSSource: DeviceSources.iOS1258)

    /// 2 GB; "iPhone6s: 1396MB/2048MB/68% (iOS 9.2)".
    static let iPhone6s = make(
        "iphone-6s", "iPhone 6s", ["iPhone8,1"], year: 2015, chip: "A9", ram: 2 * .gigabyte,
        ramSource: DeviceSources.wikipediaIPhone6s,
        limit: measured(1396, .crashTest, on: "iOS 9.2", DeviceSources.memoryBudgetTable),
        shipped: "iOS 9", latest: iOS15Last, latestSource: DeviceSources.legacySecurityReleases)
    /// 2 GB; "iPhone6s+: 1392MB/2048MB/68% (iOS 10.2.1)".
    static let iPhone6sPlus = make(
        "iphone-6s-plus", "iPhone 6s Plus", ["iPhone8,2"], year: 2015, chip: "A9", ram: 2 * .gigabyte,
        ramSource: DeviceSources.wikipediaIPhone6s,
        limit: measured(1392, .crashTest, on: "iOS 10.2.1", DeviceSources.memoryBudgetTable),
        shipped: "iOS 9", latest: iOS15Last, latestSource: DeviceSources.legacySecurityReleases)
    /// 2 GB (the budget table's total, 2048 MB); "iPhoneSE: 1395MB/2048MB/69% (iOS 9.3)".
    static let iPhoneSE = make(
        "iphone-se", "iPhone SE (1st generation)", ["iPhone8,4"], year: 2016, chip: "A9", ram: 2 * .gigabyte,
        ramSource: DeviceSources.memoryBudgetTable,
        limit: measured(1395, .crashTest, on: "iOS 9.3", DeviceSources.memoryBudgetTable),
        shipped: "iOS 9", latest: iOS15Last, latestSource: DeviceSources.legacySecurityReleases)
    /// 2 GB; "iPhone7: 1395MB/2048MB/68% (iOS 10.2)".
    static let iPhone7 = make(
        "iphone-7", "iPhone 7", ["iPhone9,1", "iPhone9,3"], year: 2016, chip: "A10 Fusion", ram: 2 * .gigabyte,
        ramSource: DeviceSources.geekbench7Plus,
        limit: measured(1395, .crashTest, on: "iOS 10.2", DeviceSources.memoryBudgetTable),
        shipped: "iOS 10", latest: iOS15Last, latestSource: DeviceSources.legacySecurityReleases)
    /// 3 GB; "iPhone7+: 2040MB/3072MB/66% (iOS 10.2.1)".
    static let iPhone7Plus = make(
        "iphone-7-plus", "iPhone 7 Plus", ["iPhone9,2", "iPhone9,4"], year: 2016, chip: "A10 Fusion", ram: 3 * .gigabyte,
        ramSource: DeviceSources.geekbench7Plus,
        limit: measured(2040, .crashTest, on: "iOS 10.2.1", DeviceSources.memoryBudgetTable),
        shipped: "iOS 10", latest: iOS15Last, latestSource: DeviceSources.legacySecurityReleases)
    /// 2 GB; 1400 MB, the limit a published iOS 11.4.1 JetsamEvent report shows exactly (the
    /// budget table's crash test gives 1364 MB on iOS 12.1: a crash test records the footprint
    /// last seen before the kill, the report the kernel's limit, so the report is preferred).
    static let iPhone8 = make(
        "iphone-8", "iPhone 8", ["iPhone10,1", "iPhone10,4"], year: 2017, chip: "A11 Bionic", ram: 2 * .gigabyte,
        ramSource: DeviceSources.wikipediaIPhone8,
        limit: measured(1400, .jetsamReport, on: "iOS 11.4.1", DeviceSources.iPhone8JetsamReport),
        shipped: "iOS 11", latest: iOS16Last, latestSource: DeviceSources.legacySecurityReleases)
    /// 3 GB; 1392 MB, derived from the iPhone X (same RAM, same A11).
    static let iPhone8Plus = make(
        "iphone-8-plus", "iPhone 8 Plus", ["iPhone10,2", "iPhone10,5"], year: 2017, chip: "A11 Bionic", ram: 3 * .gigabyte,
        ramSource: DeviceSources.wikipediaIPhone8, limit: derived(from: iPhoneX),
        shipped: "iOS 11", latest: iOS16Last, latestSource: DeviceSources.legacySecurityReleases)
    /// 3 GB; "iPhone X: 1392MB/2785MB/50% (iOS 11.2.1)".
    static let iPhoneX = make(
        "iphone-x", "iPhone X", ["iPhone10,3", "iPhone10,6"], year: 2017, chip: "A11 Bionic", ram: 3 * .gigabyte,
        ramSource: DeviceSources.iosHackerRAMList,
        limit: measured(1392, .crashTest, on: "iOS 11.2.1", DeviceSources.memoryBudgetTable),
        shipped: "iOS 11", latest: iOS16Last, latestSource: DeviceSources.legacySecurityReleases)
    /// 4 GB; "iPhone XS: 2040MB/3754MB/54% (iOS 12.1)".
    static let iPhoneXS = make(
        "iphone-xs", "iPhone XS", ["iPhone11,2"], year: 2018, chip: "A12 Bionic", ram: 4 * .gigabyte,
        ramSource: DeviceSources.geekbenchXS,
        limit: measured(2040, .crashTest, on: "iOS 12.1", DeviceSources.memoryBudgetTable),
        shipped: "iOS 12", latest: iOS18Last, latestSource: DeviceSources.legacySecurityReleases)
    /// 4 GB; "iPhone XS Max: 2039MB/3735MB/55% (iOS 12.1)".
    static let iPhoneXSMax = make(
        "iphone-xs-max", "iPhone XS Max", ["iPhone11,4", "iPhone11,6"], year: 2018, chip: "A12 Bionic",
        ram: 4 * .gigabyte, ramSource: DeviceSources.geekbenchXS,
        limit: measured(2039, .crashTest, on: "iOS 12.1", DeviceSources.memoryBudgetTable),
        shipped: "iOS 12", latest: iOS18Last, latestSource: DeviceSources.legacySecurityReleases)
    /// 3 GB; "iPhone XR: 1792MB/2813MB/63% (iOS 12.1)".
    static let iPhoneXR = make(
        "iphone-xr", "iPhone XR", ["iPhone11,8"], year: 2018, chip: "A12 Bionic", ram: 3 * .gigabyte,
        ramSource: DeviceSources.geekbenchXS,
        limit: measured(1792, .crashTest, on: "iOS 12.1", DeviceSources.memoryBudgetTable),
        shipped: "iOS 12", latest: iOS18Last, latestSource: DeviceSources.legacySecurityReleases)
    /// 4 GB; "iPhone 11: 2068MB/3844MB/54% (iOS 13.1.3)".
    static let iPhone11 = make(
        "iphone-11", "iPhone 11", ["iPhone12,1"], year: 2019, chip: "A13 Bionic", ram: 4 * .gigabyte,
        ramSource: DeviceSources.xcodeIPhone11,
        limit: measured(2068, .crashTest, on: "iOS 13.1.3", DeviceSources.memoryBudgetTable),
        shipped: "iOS 13", latest: iOS27, latestSource: DeviceSources.iOS27Devices)
    /// 4 GB; 2067 MB, derived from the iPhone 11 Pro Max (same RAM, same A13).
    static let iPhone11Pro = make(
        "iphone-11-pro", "iPhone 11 Pro", ["iPhone12,3"], year: 2019, chip: "A13 Bionic", ram: 4 * .gigabyte,
        ramSource: DeviceSources.xcodeIPhone11, limit: derived(from: iPhone11ProMax),
        shipped: "iOS 13", latest: iOS27, latestSource: DeviceSources.iOS27Devices)
    /// 4 GB; "iPhone 11 Pro Max: 2067MB/3740MB/55% (iOS 13.2.3)".
    static let iPhone11ProMax = make(
        "iphone-11-pro-max", "iPhone 11 Pro Max", ["iPhone12,5"], year: 2019, chip: "A13 Bionic", ram: 4 * .gigabyte,
        ramSource: DeviceSources.xcodeIPhone11,
        limit: measured(2067, .crashTest, on: "iOS 13.2.3", DeviceSources.memoryBudgetTable),
        shipped: "iOS 13", latest: iOS27, latestSource: DeviceSources.iOS27Devices)
    /// 3 GB; 1792 MB, derived from the iPhone XR (same RAM; the nearest chip, A12, to its A13).
    static let iPhoneSE2 = make(
        "iphone-se-2", "iPhone SE (2nd generation)", ["iPhone12,8"], year: 2020, chip: "A13 Bionic", ram: 3 * .gigabyte,
        ramSource: DeviceSources.wikipediaIPhoneSE2, limit: derived(from: iPhoneXR),
        shipped: "iOS 13", latest: iOS27, latestSource: DeviceSources.iOS27Devices)
    /// 4 GB; 2.1 GB available to an app (2150 MB, `os_proc_available_memory`, a lower bound of the
    /// limit), read in November 2024 (the iOS version is not stated).
    static let iPhone12Mini = make(
        "iphone-12-mini", "iPhone 12 mini", ["iPhone13,1"], year: 2020, chip: "A14 Bionic", ram: 4 * .gigabyte,
        ramSource: DeviceSources.xcodeIPhone12,
        limit: measured(2150, .availableMemory, on: "iOS not stated (November 2024)", DeviceSources.olmoeAvailableMemory),
        shipped: "iOS 14", latest: iOS27, latestSource: DeviceSources.iOS27Devices)
    /// 4 GB; derived from the iPhone 12 mini (same RAM, same A14).
    static let iPhone12 = make(
        "iphone-12", "iPhone 12", ["iPhone13,2"], year: 2020, chip: "A14 Bionic", ram: 4 * .gigabyte,
        ramSource: DeviceSources.xcodeIPhone12, limit: derived(from: iPhone12Mini),
        shipped: "iOS 14", latest: iOS27, latestSource: DeviceSources.iOS27Devices)
    /// 6 GB; derived from the iPhone 13 Pro (same RAM; the nearest measured 6 GB iPhone).
    static let iPhone12Pro = make(
        "iphone-12-pro", "iPhone 12 Pro", ["iPhone13,3"], year: 2020, chip: "A14 Bionic", ram: 6 * .gigabyte,
        ramSource: DeviceSources.xcodeIPhone12, limit: derived(from: iPhone13Pro),
        shipped: "iOS 14", latest: iOS27, latestSource: DeviceSources.iOS27Devices)
    /// 6 GB; derived from the iPhone 13 Pro.
    static let iPhone12ProMax = make(
        "iphone-12-pro-max", "iPhone 12 Pro Max", ["iPhone13,4"], year: 2020, chip: "A14 Bionic", ram: 6 * .gigabyte,
        ramSource: DeviceSources.xcodeIPhone12, limit: derived(from: iPhone13Pro),
        shipped: "iOS 14", latest: iOS27, latestSource: DeviceSources.iOS27Devices)
    /// 4 GB; derived from the iPhone 12 mini (same RAM, the nearest measured 4 GB iPhone).
    static let iPhone13Mini = make(
        "iphone-13-mini", "iPhone 13 mini", ["iPhone14,4"], year: 2021, chip: "A15 Bionic", ram: 4 * .gigabyte,
        ramSource: DeviceSources.xcodeIPhone13, limit: derived(from: iPhone12Mini),
        shipped: "iOS 15", latest: iOS27, latestSource: DeviceSources.iOS27Devices)
    /// 4 GB; derived from the iPhone 12 mini.
    static let iPhone13 = make(
        "iphone-13", "iPhone 13", ["iPhone14,5"], year: 2021, chip: "A15 Bionic", ram: 4 * .gigabyte,
        ramSource: DeviceSources.xcodeIPhone13, limit: derived(from: iPhone12Mini),
        shipped: "iOS 15", latest: iOS27, latestSource: DeviceSources.iOS27Devices)
    /// 6 GB; 3.12 GB available at app launch (3195 MB, `os_proc_available_memory`, a lower bound
    /// of the limit), read in March 2026 (the iOS version is not stated).
    static let iPhone13Pro = make(
        "iphone-13-pro", "iPhone 13 Pro", ["iPhone14,2"], year: 2021, chip: "A15 Bionic", ram: 6 * .gigabyte,
        ramSource: DeviceSources.xcodeIPhone13,
        limit: measured(3195, .availableMemory, on: "iOS not stated (March 2026)", DeviceSources.pocketpalAvailableMemory),
        shipped: "iOS 15", latest: iOS27, latestSource: DeviceSources.iOS27Devices)
    /// 6 GB; derived from the iPhone 13 Pro (same RAM, same A15).
    static let iPhone13ProMax = make(
        "iphone-13-pro-max", "iPhone 13 Pro Max", ["iPhone14,3"], year: 2021, chip: "A15 Bionic", ram: 6 * .gigabyte,
        ramSource: DeviceSources.xcodeIPhone13, limit: derived(from: iPhone13Pro),
        shipped: "iOS 15", latest: iOS27, latestSource: DeviceSources.iOS27Devices)
    /// 4 GB; derived from the iPhone 12 mini (same RAM, the nearest measured 4 GB iPhone).
    static let iPhoneSE3 = make(
        "iphone-se-3", "iPhone SE (3rd generation)", ["iPhone14,6"], year: 2022, chip: "A15 Bionic", ram: 4 * .gigabyte,
        ramSource: DeviceSources.iosHackerRAMList, limit: derived(from: iPhone12Mini),
        shipped: "iOS 15", latest: iOS27, latestSource: DeviceSources.iOS27Devices)
    /// 6 GB; derived from the iPhone 13 Pro (same RAM, same A15).
    static let iPhone14 = make(
        "iphone-14", "iPhone 14", ["iPhone14,7"], year: 2022, chip: "A15 Bionic", ram: 6 * .gigabyte,
        ramSource: DeviceSources.xcodeIPhone14, limit: derived(from: iPhone13Pro),
        shipped: "iOS 16", latest: iOS27, latestSource: DeviceSources.iOS27Devices)
    /// 6 GB; derived from the iPhone 13 Pro.
    static let iPhone14Plus = make(
        "iphone-14-plus", "iPhone 14 Plus", ["iPhone14,8"], year: 2022, chip: "A15 Bionic", ram: 6 * .gigabyte,
        ramSource: DeviceSources.xcodeIPhone14, limit: derived(from: iPhone13Pro),
        shipped: "iOS 16", latest: iOS27, latestSource: DeviceSources.iOS27Devices)
    /// 6 GB; derived from the iPhone 13 Pro (same RAM; the nearest measured 6 GB iPhone).
    static let iPhone14Pro = make(
        "iphone-14-pro", "iPhone 14 Pro", ["iPhone15,2"], year: 2022, chip: "A16 Bionic", ram: 6 * .gigabyte,
        ramSource: DeviceSources.xcodeIPhone14, limit: derived(from: iPhone13Pro),
        shipped: "iOS 16", latest: iOS27, latestSource: DeviceSources.iOS27Devices)
    /// 6 GB; derived from the iPhone 13 Pro.
    static let iPhone14ProMax = make(
        "iphone-14-pro-max", "iPhone 14 Pro Max", ["iPhone15,3"], year: 2022, chip: "A16 Bionic", ram: 6 * .gigabyte,
        ramSource: DeviceSources.xcodeIPhone14, limit: derived(from: iPhone13Pro),
        shipped: "iOS 16", latest: iOS27, latestSource: DeviceSources.iOS27Devices)
    /// 6 GB; derived from the iPhone 13 Pro (same RAM; the nearest measured 6 GB iPhone).
    static let iPhone15 = make(
        "iphone-15", "iPhone 15", ["iPhone15,4"], year: 2023, chip: "A16 Bionic", ram: 6 * .gigabyte,
        ramSource: DeviceSources.xcodeIPhone15, limit: derived(from: iPhone13Pro),
        shipped: "iOS 17", latest: iOS27, latestSource: DeviceSources.iOS27Devices)
    /// 6 GB; derived from the iPhone 13 Pro.
    static let iPhone15Plus = make(
        "iphone-15-plus", "iPhone 15 Plus", ["iPhone15,5"], year: 2023, chip: "A16 Bionic", ram: 6 * .gigabyte,
        ramSource: DeviceSources.xcodeIPhone15, limit: derived(from: iPhone13Pro),
        shipped: "iOS 17", latest: iOS27, latestSource: DeviceSources.iOS27Devices)
    /// 8 GB; killed at about 3.5 GB (3584 MB) in Xcode's gauge, April 2025 (the iOS version is not
    /// stated); introlab/rtabmap PR 1446 reads about 3 GB available on the same model.
    static let iPhone15Pro = make(
        "iphone-15-pro", "iPhone 15 Pro", ["iPhone16,1"], year: 2023, chip: "A17 Pro", ram: 8 * .gigabyte,
        ramSource: DeviceSources.xcodeIPhone15,
        limit: measured(3584, .killObservation, on: "iOS not stated (April 2025)", DeviceSources.swiftMistralKill),
        shipped: "iOS 17", latest: iOS27, latestSource: DeviceSources.iOS27Devices)
    /// 8 GB; derived from the iPhone 15 Pro (same RAM, same A17 Pro).
    static let iPhone15ProMax = make(
        "iphone-15-pro-max", "iPhone 15 Pro Max", ["iPhone16,2"], year: 2023, chip: "A17 Pro", ram: 8 * .gigabyte,
        ramSource: DeviceSources.xcodeIPhone15, limit: derived(from: iPhone15Pro),
        shipped: "iOS 17", latest: iOS27, latestSource: DeviceSources.iOS27Devices)
    /// 8 GB; derived from the iPhone 15 Pro (same RAM; the nearest measured 8 GB iPhone).
    static let iPhone16 = make(
        "iphone-16", "iPhone 16", ["iPhone17,3"], year: 2024, chip: "A18", ram: 8 * .gigabyte,
        ramSource: DeviceSources.xcodeIPhone16, limit: derived(from: iPhone15Pro),
        shipped: "iOS 18", latest: iOS27, latestSource: DeviceSources.iOS27Devices)
    /// 8 GB; derived from the iPhone 15 Pro.
    static let iPhone16Plus = make(
        "iphone-16-plus", "iPhone 16 Plus", ["iPhone17,4"], year: 2024, chip: "A18", ram: 8 * .gigabyte,
        ramSource: DeviceSources.xcodeIPhone16, limit: derived(from: iPhone15Pro),
        shipped: "iOS 18", latest: iOS27, latestSource: DeviceSources.iOS27Devices)
    /// 8 GB; derived from the iPhone 15 Pro.
    static let iPhone16Pro = make(
        "iphone-16-pro", "iPhone 16 Pro", ["iPhone17,1"], year: 2024, chip: "A18 Pro", ram: 8 * .gigabyte,
        ramSource: DeviceSources.xcodeIPhone16, limit: derived(from: iPhone15Pro),
        shipped: "iOS 18", latest: iOS27, latestSource: DeviceSources.iOS27Devices)
    /// 8 GB; derived from the iPhone 15 Pro.
    static let iPhone16ProMax = make(
        "iphone-16-pro-max", "iPhone 16 Pro Max", ["iPhone17,2"], year: 2024, chip: "A18 Pro", ram: 8 * .gigabyte,
        ramSource: DeviceSources.xcodeIPhone16, limit: derived(from: iPhone15Pro),
        shipped: "iOS 18", latest: iOS27, latestSource: DeviceSources.iOS27Devices)
    /// 8 GB; derived from the iPhone 15 Pro (same RAM; the nearest measured 8 GB iPhone).
    static let iPhone16e = make(
        "iphone-16e", "iPhone 16e", ["iPhone17,5"], year: 2025, chip: "A18", ram: 8 * .gigabyte,
        ramSource: DeviceSources.geekbenchIPhone16e, limit: derived(from: iPhone15Pro),
        shipped: "iOS 18", latest: iOS27, latestSource: DeviceSources.iOS27Devices)
    /// 8 GB; derived from the iPhone 15 Pro.
    static let iPhone17 = make(
        "iphone-17", "iPhone 17", ["iPhone18,3"], year: 2025, chip: "A19", ram: 8 * .gigabyte,
        ramSource: DeviceSources.trendForceIPhone17, limit: derived(from: iPhone15Pro),
        shipped: "iOS 26", latest: iOS27, latestSource: DeviceSources.iOS27Devices)
    /// No 12 GB iPhone has a published measurement of its own: a third-party report of a game
    /// killed on an unnamed 12 GB iPhone at 3342 MB resident with 33 MB of its budget left, so a
    /// limit of 3375 MB (``DeviceSources/nx2AppleTwelveGB``); the iPhone Air, 17 Pro and 17 Pro
    /// Max are the 12 GB iPhones.
    static let twelveGBIPhone: (Bytes, LimitProvenance) = (3375 * .megabyte, .derived(
        basis: "a 12 GB iPhone, model not named",
        rule: "killed at 3342 MB resident with 33 MB of its budget left (third-party), \(DeviceSources.nx2AppleTwelveGB.location)"))
    /// 12 GB; the 12 GB iPhone figure.
    static let iPhoneAir = make(
        "iphone-air", "iPhone Air", ["iPhone18,4"], year: 2025, chip: "A19 Pro", ram: 12 * .gigabyte,
        ramSource: DeviceSources.trendForceIPhone17, limit: twelveGBIPhone,
        shipped: "iOS 26", latest: iOS27, latestSource: DeviceSources.iOS27Devices)
    /// 12 GB; the 12 GB iPhone figure.
    static let iPhone17Pro = make(
        "iphone-17-pro", "iPhone 17 Pro", ["iPhone18,1"], year: 2025, chip: "A19 Pro", ram: 12 * .gigabyte,
        ramSource: DeviceSources.trendForceIPhone17, limit: twelveGBIPhone,
        shipped: "iOS 26", latest: iOS27, latestSource: DeviceSources.iOS27Devices)
    /// 12 GB; the 12 GB iPhone figure.
    static let iPhone17ProMax = make(
        "iphone-17-pro-max", "iPhone 17 Pro Max", ["iPhone18,2"], year: 2025, chip: "A19 Pro", ram: 12 * .gigabyte,
        ramSource: DeviceSources.trendForceIPhone17, limit: twelveGBIPhone,
        shipped: "iOS 26", latest: iOS27, latestSource: DeviceSources.iOS27Devices)
}
