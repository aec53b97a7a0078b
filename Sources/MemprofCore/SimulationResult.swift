/// Everything a run produced: the facts the report is built from.
public struct SimulationResult: Sendable {
    public var workload: Workload
    public var summary: Summary
    /// One entry per app, in the workload's order.
    public var apps: [AppStats]
    public var events: [SimEvent]
    /// Each app's states over the run with their causes, by app id, as the engine set them
    /// (empty lists for a run without history, `Simulator.Options.keepsHistory`).
    public var stateIntervals: [String: [StateInterval]]
    public var timeline: Timeline
    public var jetsamEvents: [JetsamEvent]
    /// Notifications posted per app: app id → notification name → count.
    public var notificationsPosted: [String: [String: Int]]
    /// Notification centers of the apps that declare objects (spec §7), by app id.
    public var observers: [String: ObserverReport]
    /// Queue entries the engine handled (script actions and everything they scheduled).
    public var processedOccurrences: Int
    /// Broken invariants, when the run was asked to check them (empty otherwise, and when sound).
    public var invariantViolations: [String]
}
