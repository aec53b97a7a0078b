/// The iPads: the reference text's iPad Air 2 and a model of each year from 2015 to 2024 (no iPad
/// came out in 2023). RAM is read from one list of every iPad (``DeviceSources/ipadRAMList``)
/// unless said otherwise; where the same identifiers cover two RAM sizes (the 2018 iPad Pro's
/// 1 TB models, the M-series iPad Pros at 1 and 2 TB), the preset is the smaller, or a second
/// preset names the larger. Identifiers, page size and `osVersion` as for the iPhones.
extension DeviceModel {
    static let iPads: [DeviceModel] = [
        iPadAir2, iPadPro12Inch9, iPadPro9Inch7, iPad5, iPadPro10Inch5, iPadPro12Inch9Second, iPad6, iPadPro11, iPadPro11OneTB,
        iPadPro12Inch9ThirdOneTB, iPad7, iPadAir3, iPadMini5, iPad8, iPadAir4, iPadPro11Second, iPad9, iPadMini6,
        iPadPro11Third, iPad10, iPadAir5, iPadPro11Fourth, iPadPro11M4, iPadPro11M4OneTB,
    ]

    static let iPadOS16Last = "iPadOS 16.7.16", iPadOS17Last = "iPadOS 17.7.11", iPadOS18Last = "iPadOS 18.7.9"
    static let iPadOS26Last = "iPadOS 26.5", iPadOS27 = "iPadOS 27.0"

    /// The reference text's iPad (device values unchanged): 2 GB; "iPad Air 2: 1383MB/2048MB/68%
    /// (iOS 10.2.1)", on the iOS the preset names.
    static let iPadAir2 = DeviceModel(
        device: Device(name: "ipad-air-2", platform: .ios, ram: 2 * .gigabyte, systemReserved: 450 * .megabyte,
                       appLimit: 1383 * .megabyte, flash: 512 * .megabyte, flashReadRate: 400 * .megabyte,
                       pageSize: 16 * .kilobyte, cpuScale: 3.0, osVersion: "iOS 10.2.1 (14D27)"),
        model: "iPad Air 2", products: ["iPad5,3", "iPad5,4"], year: 2014, chip: "A8X",
        ramSource: DeviceSources.referenceText,
        limit: .measured(method: .crashTest, os: "iOS 10.2.1", source: DeviceSources.memoryBudgetTable),
        shippedOS: "iOS 8", latestOS: "iPadOS 15.8.8", latestOSSource: DeviceSources.legacySecurityReleases)

    /// 4 GB; "iPad Pro 12.9” (2015): 3058/3999/76% (iOS 11.2.1)".
    static let iPadPro12Inch9 = make(
        "ipad-pro-12-9", "iPad Pro 12.9-inch (1st generation)", ["iPad6,7", "iPad6,8"], year: 2015, chip: "A9X",
        ram: 4 * .gigabyte, ramSource: DeviceSources.ipadRAMList,
        limit: measured(3058, .crashTest, on: "iOS 11.2.1", DeviceSources.memoryBudgetTable),
        shipped: "iOS 9", latest: iPadOS16Last, latestSource: DeviceSources.legacySecurityReleases)
    /// 2 GB; "iPad Pro 9.7\": 1395MB/1971MB/71% (iOS 10.0.2 (14A456))".
    static let iPadPro9Inch7 = make(
        "ipad-pro-9-7", "iPad Pro 9.7-inch", ["iPad6,3", "iPad6,4"], year: 2016, chip: "A9X",
        ram: 2 * .gigabyte, ramSource: DeviceSources.ipadRAMList,
        limit: measured(1395, .crashTest, on: "iOS 10.0.2 (14A456)", DeviceSources.memoryBudgetTable),
        shipped: "iOS 9", latest: iPadOS16Last, latestSource: DeviceSources.legacySecurityReleases)
    /// 2 GB; derived from the iPad Pro 9.7-inch (same RAM; the nearest chip, A9X, to its A9).
    static let iPad5 = make(
        "ipad-5", "iPad (5th generation)", ["iPad6,11", "iPad6,12"], year: 2017, chip: "A9",
        ram: 2 * .gigabyte, ramSource: DeviceSources.ipadRAMList, limit: derived(from: iPadPro9Inch7),
        shipped: "iOS 10", latest: iPadOS16Last, latestSource: DeviceSources.legacySecurityReleases)
    /// 4 GB; "iPad Pro 10.5”: 3057/4000/76% (iOS 11 beta4)".
    static let iPadPro10Inch5 = make(
        "ipad-pro-10-5", "iPad Pro 10.5-inch", ["iPad7,3", "iPad7,4"], year: 2017, chip: "A10X Fusion",
        ram: 4 * .gigabyte, ramSource: DeviceSources.ipadRAMList,
        limit: measured(3057, .crashTest, on: "iOS 11 beta 4", DeviceSources.memoryBudgetTable),
        shipped: "iOS 10", latest: iPadOS17Last, latestSource: DeviceSources.legacySecurityReleases)
    /// 4 GB; "iPad Pro 12.9” (2017): 3057/3974/77% (iOS 11 beta4)".
    static let iPadPro12Inch9Second = make(
        "ipad-pro-12-9-2", "iPad Pro 12.9-inch (2nd generation)", ["iPad7,1", "iPad7,2"], year: 2017,
        chip: "A10X Fusion", ram: 4 * .gigabyte, ramSource: DeviceSources.ipadRAMList,
        limit: measured(3057, .crashTest, on: "iOS 11 beta 4", DeviceSources.memoryBudgetTable),
        shipped: "iOS 10", latest: iPadOS17Last, latestSource: DeviceSources.legacySecurityReleases)
    /// 2 GB; derived from the iPad Pro 9.7-inch (same RAM; the nearest measured 2 GB iPad model).
    static let iPad6 = make(
        "ipad-6", "iPad (6th generation)", ["iPad7,5", "iPad7,6"], year: 2018, chip: "A10 Fusion",
        ram: 2 * .gigabyte, ramSource: DeviceSources.ipadRAMList, limit: derived(from: iPadPro9Inch7),
        shipped: "iOS 11", latest: iPadOS17Last, latestSource: DeviceSources.legacySecurityReleases)
    /// 4 GB (the models below 1 TB); "iPad Pro 11.0” (2018): 2858/3769/76% (iOS 12.1)".
    static let iPadPro11 = make(
        "ipad-pro-11", "iPad Pro 11-inch (1st generation)", ["iPad8,1", "iPad8,3"], year: 2018, chip: "A12X Bionic",
        ram: 4 * .gigabyte, ramSource: DeviceSources.arsM4IPadPro,
        limit: measured(2858, .crashTest, on: "iOS 12.1", DeviceSources.memoryBudgetTable),
        shipped: "iOS 12", latest: iPadOS26Last, latestSource: DeviceSources.iPadOS26Last)
    /// 6 GB (the 1 TB models); derived from the 1 TB iPad Pro 12.9-inch of the same year (same RAM,
    /// same A12X).
    static let iPadPro11OneTB = make(
        "ipad-pro-11-1tb", "iPad Pro 11-inch (1st generation, 1 TB)", ["iPad8,2", "iPad8,4"], year: 2018,
        chip: "A12X Bionic", ram: 6 * .gigabyte, ramSource: DeviceSources.arsM4IPadPro,
        limit: derived(from: iPadPro12Inch9ThirdOneTB),
        shipped: "iOS 12", latest: iPadOS26Last, latestSource: DeviceSources.iPadOS26Last)
    /// 6 GB (the 1 TB models); "iPad Pro 12.9” (2018, 1TB): 4598/5650/81% (iOS 12.1)".
    static let iPadPro12Inch9ThirdOneTB = make(
        "ipad-pro-12-9-3-1tb", "iPad Pro 12.9-inch (3rd generation, 1 TB)", ["iPad8,6", "iPad8,8"], year: 2018,
        chip: "A12X Bionic", ram: 6 * .gigabyte, ramSource: DeviceSources.arsM4IPadPro,
        limit: measured(4598, .crashTest, on: "iOS 12.1", DeviceSources.memoryBudgetTable),
        shipped: "iOS 12", latest: iPadOS26Last, latestSource: DeviceSources.iPadOS26Last)
    /// 3 GB; "iPad 10.2: 1844/2998/62% (iOS 13.2.3)" (the 10.2-inch iPad of 2019).
    static let iPad7 = make(
        "ipad-7", "iPad (7th generation)", ["iPad7,11", "iPad7,12"], year: 2019, chip: "A10 Fusion",
        ram: 3 * .gigabyte, ramSource: DeviceSources.ipadRAMList,
        limit: measured(1844, .crashTest, on: "iPadOS 13.2.3", DeviceSources.memoryBudgetTable),
        shipped: "iPadOS 13", latest: iPadOS18Last, latestSource: DeviceSources.legacySecurityReleases)
    /// 3 GB; derived from the iPad (7th generation) (same RAM; the nearest measured 3 GB iPad).
    static let iPadAir3 = make(
        "ipad-air-3", "iPad Air (3rd generation)", ["iPad11,3", "iPad11,4"], year: 2019, chip: "A12 Bionic",
        ram: 3 * .gigabyte, ramSource: DeviceSources.ipadRAMList, limit: derived(from: iPad7),
        shipped: "iOS 12", latest: iPadOS26Last, latestSource: DeviceSources.iPadOS26Last)
    /// 3 GB; derived from the iPad (7th generation).
    static let iPadMini5 = make(
        "ipad-mini-5", "iPad mini (5th generation)", ["iPad11,1", "iPad11,2"], year: 2019, chip: "A12 Bionic",
        ram: 3 * .gigabyte, ramSource: DeviceSources.ipadRAMList, limit: derived(from: iPad7),
        shipped: "iOS 12", latest: iPadOS26Last, latestSource: DeviceSources.iPadOS26Last)
    /// 3 GB; derived from the iPad (7th generation).
    static let iPad8 = make(
        "ipad-8", "iPad (8th generation)", ["iPad11,6", "iPad11,7"], year: 2020, chip: "A12 Bionic",
        ram: 3 * .gigabyte, ramSource: DeviceSources.ipadRAMList, limit: derived(from: iPad7),
        shipped: "iPadOS 14", latest: iPadOS26Last, latestSource: DeviceSources.iPadOS26Last)
    /// 4 GB; derived from the iPad Pro 11-inch (1st generation) (same RAM; the nearest measured 4 GB iPad).
    static let iPadAir4 = make(
        "ipad-air-4", "iPad Air (4th generation)", ["iPad13,1", "iPad13,2"], year: 2020, chip: "A14 Bionic",
        ram: 4 * .gigabyte, ramSource: DeviceSources.ipadRAMList, limit: derived(from: iPadPro11),
        shipped: "iPadOS 14", latest: iPadOS27, latestSource: DeviceSources.iPadOS27Devices)
    /// 6 GB; derived from the 1 TB iPad Pro 12.9-inch (3rd generation) (same RAM; A12X, the
    /// nearest chip to its A12Z).
    static let iPadPro11Second = make(
        "ipad-pro-11-2", "iPad Pro 11-inch (2nd generation)", ["iPad8,9", "iPad8,10"], year: 2020, chip: "A12Z Bionic",
        ram: 6 * .gigabyte, ramSource: DeviceSources.ipadRAMList, limit: derived(from: iPadPro12Inch9ThirdOneTB),
        shipped: "iPadOS 13", latest: iPadOS27, latestSource: DeviceSources.iPadOS27Devices)
    /// 3 GB; derived from the iPad (7th generation).
    static let iPad9 = make(
        "ipad-9", "iPad (9th generation)", ["iPad12,1", "iPad12,2"], year: 2021, chip: "A13 Bionic",
        ram: 3 * .gigabyte, ramSource: DeviceSources.ipadRAMList, limit: derived(from: iPad7),
        shipped: "iPadOS 15", latest: iPadOS27, latestSource: DeviceSources.iPadOS27Devices)
    /// 4 GB; derived from the iPad Pro 11-inch (1st generation).
    static let iPadMini6 = make(
        "ipad-mini-6", "iPad mini (6th generation)", ["iPad14,1", "iPad14,2"], year: 2021, chip: "A15 Bionic",
        ram: 4 * .gigabyte, ramSource: DeviceSources.ipadRAMList, limit: derived(from: iPadPro11),
        shipped: "iPadOS 15", latest: iPadOS27, latestSource: DeviceSources.iPadOS27Devices)

    /// No 8 GB iPad model has a published measurement: the figure is the Apple Developer Forums
    /// report of an unnamed 8 GB iPad, about 3 GB per app on iPadOS 26.4 and 26.5 (about 6 GB on
    /// iPadOS 26.0–26.3), the latest OS measured.
    static let eightGBIPad: (Bytes, LimitProvenance) = (3 * .gigabyte, .derived(
        basis: "an 8 GB iPad, model not named",
        rule: "≈3 GB available per app on iPadOS 26.4–26.5 (≈6 GB on 26.0–26.3), \(DeviceSources.ipad8GBForum.location)"))
    /// Before iPadOS 26.4 the same report reads about 6 GB per app on that 8 GB iPad (iPadOS
    /// 26.0–26.3); no earlier release is measured, so the 6 GB stands for every release before 26.4.
    static let eightGBIPadEarlier = [EarlierLimit(before: (26, 4), limit: 6 * .gigabyte, provenance: .derived(
        basis: "an 8 GB iPad, model not named",
        rule: "≈6 GB available per app on iPadOS 26.0–26.3 (≈3 GB from 26.4), \(DeviceSources.ipad8GBForum.location)"))]
    /// No 16 GB iPad has a published measurement: the 8 GB iPad's report gives its limit as a
    /// share of RAM (3 GB, 37.5%, from iPadOS 26.4; about 6 GB, 75%, before), and the same shares
    /// of 16 GB are taken: 6 GB, and 12 GB before iPadOS 26.4.
    static let sixteenGBIPad: (Bytes, LimitProvenance) = (6 * .gigabyte, .derived(
        basis: "an 8 GB iPad, model not named",
        rule: "no 16 GB iPad measured; the 8 GB iPad's 37.5% of RAM from iPadOS 26.4, \(DeviceSources.ipad8GBForum.location)"))
    static let sixteenGBIPadEarlier = [EarlierLimit(before: (26, 4), limit: 12 * .gigabyte, provenance: .derived(
        basis: "an 8 GB iPad, model not named",
        rule: "no 16 GB iPad measured; the 8 GB iPad's ≈75% of RAM on iPadOS 26.0–26.3, \(DeviceSources.ipad8GBForum.location)"))]

    /// 8 GB (the models below 1 TB); the 8 GB iPad figure. Virtual memory swap from iPadOS 16,
    /// apps up to 16 GB (``DeviceSources/iPadOS16Swap``).
    static let iPadPro11Third = make(
        "ipad-pro-11-3", "iPad Pro 11-inch (3rd generation)", ["iPad13,4", "iPad13,5", "iPad13,6", "iPad13,7"],
        year: 2021, chip: "M1", ram: 8 * .gigabyte, ramSource: DeviceSources.ipadRAMList, limit: eightGBIPad,
        shipped: "iPadOS 14", latest: iPadOS27, latestSource: DeviceSources.iPadOS27Devices, earlierLimits: eightGBIPadEarlier,
        swap: 16 * .gigabyte)
    /// 4 GB; derived from the iPad Pro 11-inch (1st generation).
    static let iPad10 = make(
        "ipad-10", "iPad (10th generation)", ["iPad13,18", "iPad13,19"], year: 2022, chip: "A14 Bionic",
        ram: 4 * .gigabyte, ramSource: DeviceSources.ipadRAMList, limit: derived(from: iPadPro11),
        shipped: "iPadOS 16", latest: iPadOS27, latestSource: DeviceSources.iPadOS27Devices)
    /// 8 GB; the 8 GB iPad figure. Virtual memory swap from iPadOS 16, apps up to 16 GB, on the
    /// models with 256 GB of storage (the 64 GB model has none; the preset stands for the 256 GB
    /// one) (``DeviceSources/iPadOS16Swap``).
    static let iPadAir5 = make(
        "ipad-air-5", "iPad Air (5th generation)", ["iPad13,16", "iPad13,17"], year: 2022, chip: "M1",
        ram: 8 * .gigabyte, ramSource: DeviceSources.ipadRAMList, limit: eightGBIPad,
        shipped: "iPadOS 15", latest: iPadOS27, latestSource: DeviceSources.iPadOS27Devices, earlierLimits: eightGBIPadEarlier,
        swap: 16 * .gigabyte)
    /// 8 GB (the models below 1 TB); the 8 GB iPad figure.
    static let iPadPro11Fourth = make(
        "ipad-pro-11-4", "iPad Pro 11-inch (4th generation)", ["iPad14,3", "iPad14,4"], year: 2022, chip: "M2",
        ram: 8 * .gigabyte, ramSource: DeviceSources.ipadRAMList, limit: eightGBIPad,
        shipped: "iPadOS 16", latest: iPadOS27, latestSource: DeviceSources.iPadOS27Devices, earlierLimits: eightGBIPadEarlier)
    /// 8 GB (256 and 512 GB of storage); the 8 GB iPad figure.
    static let iPadPro11M4 = make(
        "ipad-pro-11-m4", "iPad Pro 11-inch (M4)", ["iPad16,3", "iPad16,4"], year: 2024, chip: "M4",
        ram: 8 * .gigabyte, ramSource: DeviceSources.arsM4IPadPro, limit: eightGBIPad,
        shipped: "iPadOS 17", latest: iPadOS27, latestSource: DeviceSources.iPadOS27Devices, earlierLimits: eightGBIPadEarlier)
    /// 16 GB (1 and 2 TB of storage, the same identifiers as the 8 GB models, which
    /// ``DeviceModel/product(_:)`` names); the 16 GB iPad figure.
    static let iPadPro11M4OneTB = make(
        "ipad-pro-11-m4-1tb", "iPad Pro 11-inch (M4, 1 TB)", ["iPad16,3", "iPad16,4"], year: 2024, chip: "M4",
        ram: 16 * .gigabyte, ramSource: DeviceSources.arsM4IPadPro, limit: sixteenGBIPad,
        shipped: "iPadOS 17", latest: iPadOS27, latestSource: DeviceSources.iPadOS27Devices,
        earlierLimits: sixteenGBIPadEarlier)
}
