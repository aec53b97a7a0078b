/// The published sources the device table reads its figures from, each named once.
public enum DeviceSources {
    /// The crash-test table in the StackOverflow answer "iOS app maximum memory budget" (Jan
    /// Ilavsky's test tool, run by many contributors): "device: crash amount / total amount /
    /// percentage of total (iOS version)". Read as quoted in full, with the answer's address, in a
    /// public copy of a Chinese article on iOS memory management (which cites kekec's cnblogs
    /// article), found through the search corpus; the answer itself was not reachable here.
    public static let memoryBudgetTable = Citation(
        "StackOverflow answer 15200855, \"iOS app maximum memory budget\" (crash amount per device)",
        "https://stackoverflow.com/questions/5887248/ios-app-maximum-memory-budget/15200855#15200855")
    /// A JetsamEvent report of an iPhone 8 on iOS 11.4.1 whose frontmost app `MemoryTest` was
    /// killed at 89600 pages of 16 KB (1400 MB), `per-process-limit`; kept as a fixture.
    public static let iPhone8JetsamReport = Citation(
        "JetsamEvent report, iPhone10,1, iOS 11.4.1 (15G77): MemoryTest killed at 1400 MB (per-process-limit)",
        "memprof Tests/MemprofFieldTests/Fixtures/ios11-iphone8-memorytest.ips (source in SOURCES.md there)")
    /// allenai/OLMoE.swift pull request 38: on an iPhone 12 mini `os_proc_available_memory` read
    /// 2.1 GB, 2.4 GB with the increased-memory-limit entitlement (November 2024).
    public static let olmoeAvailableMemory = Citation(
        "allenai/OLMoE.swift pull request 38: iPhone 12 mini, available memory 2.1 GB",
        "https://github.com/allenai/OLMoE.swift/pull/38")
    /// a-ghorbani/pocketpal-ai pull request 651: on an iPhone 13 Pro (6 GB) `available_memory`
    /// read 3.12 GB at app launch, 4.20 GB with the increased-memory-limit entitlement (March 2026).
    public static let pocketpalAvailableMemory = Citation(
        "a-ghorbani/pocketpal-ai pull request 651: iPhone 13 Pro, available memory 3.12 GB at launch",
        "https://github.com/a-ghorbani/pocketpal-ai/pull/651")
    /// cardona/SwiftMistralCoreML#15: on an iPhone 15 Pro the app's memory rose "until
    /// ~3.5GB (%50 utilization)" in Xcode before the system killed it for using too much memory
    /// (April 2025). introlab/rtabmap pull request 1446 reads about 3 GB available on the same
    /// model (6 GB with the entitlement), consistent with it as a lower bound.
    public static let swiftMistralKill = Citation(
        "cardona/SwiftMistralCoreML#15: iPhone 15 Pro killed at ~3.5 GB",
        "https://github.com/cardona/SwiftMistralCoreML/issues/15")
    /// Apple Developer Forums thread 826325: on an 8 GB iPad (model not named) the memory
    /// available to one app, by Apple's API, was about 6 GB on iPadOS 26.0–26.3 and about 3 GB
    /// (37.5% of RAM) on iPadOS 26.4 and 26.5.
    public static let ipad8GBForum = Citation(
        "Apple Developer Forums thread 826325: 8 GB iPad, ≈3 GB per app on iPadOS 26.4–26.5 (≈6 GB before)",
        "https://developer.apple.com/forums/thread/826325")

    /// LNPANDY/NX2Apple, ENTITLEMENTS.md: on a 12 GB iPhone (the model is not named) a game was
    /// killed at 3342 MB resident with 33 MB of its budget left, "about 3.3 GB without the
    /// entitlement and 6–8 GB with it"; a third-party measurement.
    public static let nx2AppleTwelveGB = Citation(
        "LNPANDY/NX2Apple ENTITLEMENTS.md: a 12 GB iPhone (model not named) killed at 3342 MB, 33 MB left",
        "https://raw.githubusercontent.com/LNPANDY/NX2Apple/master/ENTITLEMENTS.md")
    /// Apple's documentation of `com.apple.developer.kernel.increased-memory-limit`: available
    /// from iOS and iPadOS 15.0; "An increased memory limit is only available on some device models".
    public static let increasedMemoryLimitDocs = Citation(
        "Apple: com.apple.developer.kernel.increased-memory-limit (iOS 15.0+, \"only available on some device models\")",
        "https://developer.apple.com/documentation/bundleresources/entitlements/com.apple.developer.kernel.increased-memory-limit")
    /// Apple Developer Forums thread 740831: on an iPhone 8 with iOS 15.2 the entitlement left
    /// `os_proc_available_memory()` the same; Apple DTS answered that the increase is only
    /// available on some device models.
    public static let iPhone8NoRaise = Citation(
        "Apple Developer Forums thread 740831: iPhone 8, iOS 15.2, the entitlement changes nothing",
        "https://developer.apple.com/forums/thread/740831")
    /// introlab/rtabmap pull request 1446: `os_proc_available_memory()` with the entitlement, "iphone
    /// 12 = 3GB -> 4GB" and "iphone 15 Pro = 6 GB available RAM for the App instead of 3GB"
    /// (February 2025).
    public static let rtabmapEntitlement = Citation(
        "introlab/rtabmap pull request 1446: entitlement raises iPhone 12 3 → 4 GB, iPhone 15 Pro 3 → 6 GB",
        "https://github.com/introlab/rtabmap/pull/1446")
    /// Apple Developer Forums thread 73148, "What is the memory limit for a network extension?":
    /// Apple DTS's tables of Network Extension provider limits (MiB): before iOS 15 packet tunnel
    /// and app proxy 15, filter control and filter data 6 (64-bit); iOS 15.0 packet tunnel 50, app
    /// proxy 15, filter control 12, filter data 6, DNS proxy 15, app push 24; iOS 16.0 packet
    /// tunnel 50, app proxy 15, filter control 50, filter data 50, DNS proxy 15, app push 24,
    /// "unchanged on iOS 26".
    public static let networkExtensionLimits = Citation(
        "Apple Developer Forums thread 73148: Network Extension provider memory limits by iOS version (Apple DTS)",
        "https://developer.apple.com/forums/thread/73148")

    /// Wikipedia, iPhone 6s: "Memory: 2 GB LPDDR4 RAM" (with the teardowns it cites); iFixit's
    /// teardown found 2 GB of Samsung LPDDR4.
    public static let wikipediaIPhone6s = Citation("Wikipedia: iPhone 6s (infobox, Memory)",
                                                   "https://en.wikipedia.org/wiki/IPhone_6s")
    /// Wikipedia, iPhone 8: "8: 2 GB LPDDR4X RAM, 8 Plus: 3 GB LPDDR4X RAM".
    public static let wikipediaIPhone8 = Citation("Wikipedia: iPhone 8 (infobox, Memory)",
                                                  "https://en.wikipedia.org/wiki/IPhone_8")
    /// Wikipedia, iPhone SE (2nd generation): "3 GB of LPDDR4X RAM".
    public static let wikipediaIPhoneSE2 = Citation("Wikipedia: iPhone SE (2nd generation) (infobox, Memory)",
                                                    "https://en.wikipedia.org/wiki/IPhone_SE_(2nd_generation)")
    /// Techweez, September 2016: a Geekbench listing shows the iPhone 7 Plus with 3 GB, the
    /// iPhone 7 with 2 GB.
    public static let geekbench7Plus = Citation("Techweez: iPhone 7 Plus has 3 GB RAM (Geekbench listing)",
                                                "https://techweez.com/2016/09/09/iphone-7-plus-3gb-ram-revealed/")
    /// nhub.news, September 2018: Geekbench shows 4 GB in the iPhone XS and XS Max, 3 GB in the XR.
    public static let geekbenchXS = Citation("nhub.news: iPhone XS and XS Max 4 GB, XR 3 GB (Geekbench)",
        "http://nhub.news/2018/09/iphone-xs-and-xs-max-come-with-4gb-of-ram-xr-gets-3gb-ram-benchmark-site-reveals/")
    /// ioshacker.com, "How Much RAM Does My iPhone Has?": one list of every iPhone's RAM (iPhone X
    /// 3 GB, iPhone SE (3rd generation) 4 GB, …); used where no first-hand figure was found.
    public static let iosHackerRAMList = Citation("iOSHacker: RAM in every iPhone ever released",
                                                  "https://ioshacker.com/iphone/how-much-ram-does-my-iphone-has")
    /// HotHardware, September 2019: Steve Troughton-Smith found in Xcode that every iPhone 11
    /// model has 4 GB.
    public static let xcodeIPhone11 = Citation("HotHardware: iPhone 11 models 4 GB RAM, found in Xcode",
                                               "https://hothardware.com/news/iphone-11-ram-and-battery-details")
    /// iPhoneHacks, October 2020: plist files in the Xcode 12.1 beta give 6 GB to the iPhone 12
    /// Pro and Pro Max, 4 GB to the iPhone 12 and 12 mini.
    public static let xcodeIPhone12 = Citation("iPhoneHacks: iPhone 12 series RAM from Xcode 12.1 beta plists",
        "https://www.iphonehacks.com/2020/10/iphone-12-pro-iphone-12-series-ram-capacity.html")
    /// MacRumors, September 2021: strings in the Xcode 13 beta give the iPhone 13 Pro and Pro Max
    /// 6 GB, the iPhone 13 and 13 mini 4 GB.
    public static let xcodeIPhone13 = Citation("MacRumors: iPhone 13 RAM from Xcode 13",
                                               "https://www.macrumors.com/2021/09/15/how-much-ram-in-iphone-13/")
    /// MacRumors, September 2022: files in the Xcode 14 beta give all four iPhone 14 models 6 GB.
    public static let xcodeIPhone14 = Citation("MacRumors: iPhone 14 models all 6 GB, from Xcode 14",
                                               "https://macrumors.com/2022/09/08/iphone-14-ram-amounts")
    /// MacRumors, September 2023: files in the Xcode 15 RC give the iPhone 15 and 15 Plus 6 GB,
    /// the 15 Pro and Pro Max 8 GB.
    public static let xcodeIPhone15 = Citation("MacRumors: iPhone 15 Pro 8 GB, iPhone 15 6 GB, from Xcode 15 RC",
                                               "https://www.macrumors.com/2023/09/12/iphone-15-pro-models-have-8gb-ram/")
    /// TechRadar, September 2024, reporting MacRumors: Xcode 16 lists 8 GB for all four iPhone 16
    /// models (Apple's Johny Srouji later said so in an interview).
    public static let xcodeIPhone16 = Citation("TechRadar: every iPhone 16 model has 8 GB, from Xcode 16",
        "https://www.techradar.com/phones/iphone/every-iphone-16-model-seemingly-has-8gb-of-ram-which-could-be-bad-news-for-apple-intelligence")
    /// TechNetBooks, February 2025: the iPhone 16e's Geekbench listing shows 8 GB.
    public static let geekbenchIPhone16e = Citation("TechNetBooks: iPhone 16e Geekbench listing shows 8 GB",
        "https://technetbooks.com/2025/02/iphone-16e-geekbench-leak-budget-model.html")
    /// MacRumors, 4 September 2025, reporting TrendForce: iPhone 17 8 GB; iPhone Air, 17 Pro and
    /// 17 Pro Max 12 GB (as Ming-Chi Kuo said in April 2025); published before the launch.
    public static let trendForceIPhone17 = Citation("MacRumors: iPhone 17 8 GB; Air, 17 Pro, 17 Pro Max 12 GB (TrendForce)",
        "https://www.macrumors.com/2025/09/04/iphone-17-ram-amounts-trendforce/")
    /// Wolf of Tablet, "iPad RAM": one list of every iPad's RAM; the M-series iPad Pros have 8 GB
    /// below 1 TB of storage and 16 GB at 1 TB and 2 TB, under the same product identifiers.
    public static let ipadRAMList = Citation("Wolf of Tablet: RAM of every iPad", "https://wolfoftablet.com/ipad-ram/")
    /// Ars Technica (May 2024, as reprinted): Apple's tech specs give the M4 iPad Pro 8 GB with 256
    /// or 512 GB of storage and 16 GB with 1 or 2 TB; the 2018 iPad Pro had 4 GB, 6 GB at 1 TB.
    public static let arsM4IPadPro = Citation("Ars Technica: M4 iPad Pro CPU cores and RAM tied to storage (reprint)",
        "https://sepahanews.com/m4-ipad-pro-cpu-cores-and-ram-amount-are-tied-to-storage-capacity/")

    /// DeviceKit's device table: each model's hardware identifiers (`iPhone15,4` …).
    public static let deviceKit = Citation("devicekit/DeviceKit, Source/Device.swift.gyb (commit 56b997e)",
                                           "devicekit/DeviceKit Source/Device.swift.gyb")
    /// Published JetsamEvent reports of A9-and-later devices write `pageSize` 16384: the iPhone 8
    /// (iOS 11.4.1), iPhone 11 (iOS 14.2) and iPhone 14 (iOS 18.5) fixtures; the article quoting the
    /// memory budget table says A9 systems page physical and virtual memory by 16 KB (A7 and A8:
    /// 4 KB physical pages).
    public static let pageSize16K = Citation("JetsamEvent fixtures with pageSize 16384 (A11, A13, A15)",
        "memprof Tests/MemprofFieldTests/Fixtures/ios11-iphone8-memorytest.ips, corpus/ios14.2-iphone12-1-highwater.ips, ios18-iphone14-excerpt.ips")
    /// Apple's spring 2026 security releases for devices that stay on older systems: iOS 18.7.9
    /// (iPhone XS, XS Max, XR, iPad 7th generation), iPadOS 17.7.11 (iPad Pro 12.9-inch 2nd
    /// generation, iPad Pro 10.5-inch, iPad 6th generation), iOS 16.7.16 (iPhone 8, 8 Plus, X,
    /// iPad 5th generation, early iPad Pros), iOS 15.8.8 (iPhone 6s, 7, SE 1st generation).
    public static let legacySecurityReleases = Citation("Milik: Apple security updates for older devices (iOS 18.7.9, 16.7.16, 15.8.8, iPadOS 17.7.11)",
                                                        "https://www.milik.ai/articles/f8d52f93b2")
    /// iOS 27 runs on every iPhone that runs iOS 26, the iPhone 11 and later.
    public static let iOS27Devices = Citation("Wedoany: iOS 27 drops no iPhone; any iPhone on iOS 26 upgrades",
                                              "https://en.wedoany.com/shortnews/226619.html")
    /// iPadOS 27 runs on the iPad Pro 11-inch 2nd generation and later, iPad Pro 12.9-inch 4th
    /// generation and later, iPad Air 4th generation and later, iPad 9th generation and later and
    /// iPad mini 6th generation and later; A12-family iPads stay on iPadOS 26 (26.5).
    public static let iPadOS27Devices = Citation("CertiDeal: the iPads compatible with iPadOS 27",
                                                 "https://mag.certideal.com/en/ipados-27-the-full-compatible-ipad-list/")
    /// 9to5Mac, June 2026: iPadOS 27 leaves the A12 and A12X iPads behind; Apple signs iOS 26.5.
    public static let iPadOS26Last = Citation("9to5Mac: these five iPad models won't run iPadOS 27",
                                              "https://9to5mac.com/2026/06/27/these-five-ipad-models-wont-run-ipados-27-but-deserve-better/")
    /// blacktop/ipsw-diffs compares iOS 12.5.7 (16H81) with 12.5.8 (16H88), the last release for
    /// A8 iPhones.
    public static let iOS1258 = Citation("blacktop/ipsw-diffs, 12_5_7_16H81__vs_12_5_8_16H88/README.md",
                                         "blacktop/ipsw-diffs 12_5_7_16H81__vs_12_5_8_16H88/README.md")
    /// The reference text memprof starts from (its iPhone 6 Plus and iPad Air 2 figures).
    /// MacRumors, "iPadOS 16 Lets Apps Use Storage as Virtual RAM on Recent iPads" (Sami Fathi,
    /// June 2022), reading the footnote of Apple's iPadOS 16 preview page: "For M1 iPad Pro
    /// models, apps can use up to 16GB of memory"; the fifth-generation iPad Air (M1) "with at least
    /// 256GB of storage" also has it (the footnote first said fourth generation, then was
    /// corrected). Read in a forum's repost of the article, whose address is given.
    public static let iPadOS16Swap = Citation(
        "MacRumors: iPadOS 16 virtual memory swap on M1 iPads, apps up to 16 GB (Apple's preview footnote; reposted)",
        "https://holo.fyi/threads/ipados-16-lets-apps-use-storage-as-virtual-ram-on-recent-ipads.65841/latest")
    public static let referenceText = Citation("memprof's reference text (README, Built-in devices)", "memprof README.md")
}
