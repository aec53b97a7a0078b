import Foundation

extension Report.Host {
    /// Facts about this machine now, for the report's `host` section.
    public static func current(simulationWallMs: Double, processedOccurrences: Int) -> Report.Host {
        let info = ProcessInfo.processInfo
        let formatter = ISO8601DateFormatter()
        return Report.Host(hostname: info.hostName, os: info.operatingSystemVersionString,
                           processors: info.activeProcessorCount, generatedAt: formatter.string(from: Date()),
                           simulationWallMs: simulationWallMs, processedOccurrences: processedOccurrences)
    }
}
