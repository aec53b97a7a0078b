import MemprofCore

/// Reads `iPhone OS 11.4.1 (15G77)`, `iOS 18.5 (22F76)` and the like (kept apart from the
/// report model so the `.ips` fuzz target builds the reader without MemprofCore).
enum IOSVersion {
    static func parse(_ text: String) -> (major: Int, minor: Int)? { Device.version(text) }
}

extension JetsamReport {
    /// The iOS version the report names (`os_version`, else `build`), as (major, minor).
    public var osVersion: (major: Int, minor: Int)? {
        IOSVersion.parse(header.osVersion) ?? build.flatMap(IOSVersion.parse)
    }
}
