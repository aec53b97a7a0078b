extension SimEvent.Kind {
    /// What a run's outputs do with events of one kind, declared once for every kind
    /// (``SimEvent/Kind/outputs``): the event log, trace.json's tracks and report.html's
    /// lanes, decisions and flame graphs each ask it before they read an event, so a kind none of
    /// them draws needs no code in any of them (<doc:AddingAnEventKind>).
    ///
    /// report.json writes every event of the kinds its log keeps, with the keys
    /// ``SimEvent/fields`` gives it.
    public struct Outputs: Sendable, Hashable {
        /// Kept by `--events decisions`: a decision of the system about memory.
        public var isDecision: Bool
        /// trace.json: an instant on the app's lifecycle track or on the device's, or none.
        public var traceInstant: Track?
        /// Ends the app's state interval and opens the next (trace.json's state slices,
        /// report.html's lanes).
        public var changesState: Bool
        /// Starts or ends a handler run (trace.json's handler slices, report.html's handler lanes;
        /// the starts also place report.html's flame graphs).
        public var handlerRun: HandlerRunEdge?
        /// A mark on the app's lane in report.html's swimlanes.
        public var laneMark: Bool
        /// A row (or part of one) of report.html's decisions table.
        public var decisionRow: Bool
        /// Sets the pressure level (the timeline's `levels`, trace.json's pressure counter,
        /// report.html's pressure strip).
        public var setsPressureLevel: Bool

        /// A kind no output draws but report.json's events; the other uses are set by name.
        public init(isDecision: Bool = false, traceInstant: Track? = nil, changesState: Bool = false,
                    handlerRun: HandlerRunEdge? = nil, laneMark: Bool = false, decisionRow: Bool = false,
                    setsPressureLevel: Bool = false) {
            self.isDecision = isDecision
            self.traceInstant = traceInstant
            self.changesState = changesState
            self.handlerRun = handlerRun
            self.laneMark = laneMark
            self.decisionRow = decisionRow
            self.setsPressureLevel = setsPressureLevel
        }

        /// Whether trace.json reads events of the kind (as instants, state changes or handler runs).
        public var isTraced: Bool { traceInstant != nil || changesState || handlerRun != nil }
    }

    /// Where trace.json draws an instant.
    public enum Track: Sendable, Hashable {
        /// The app's lifecycle track (the device's for an event without an app).
        case app
        /// The device's track.
        case device
    }

    /// How an event bounds a handler run.
    public enum HandlerRunEdge: Sendable, Hashable {
        /// A run starts.
        case start
        /// A run ends (a handler's end, or its app's exit, which ends every run it had open).
        case end
    }

    /// What each output does with events of this kind: the one declaration of it.
    @inlinable
    public var outputs: Outputs {
        switch self {
        case .transition: Outputs(changesState: true)
        case .callback, .pushDelivered, .ignored, .objectShown, .objectDismissed, .notificationDelivery: Outputs()
        case .launch, .resume: Outputs(traceInstant: .app, laneMark: true)
        case .compression, .eviction:
            Outputs(isDecision: true, traceInstant: .app, laneMark: true, decisionRow: true)
        case .decompression, .swap: Outputs(isDecision: true)
        case .processExit: Outputs(isDecision: true, traceInstant: .device)
        case .processLaunch: Outputs(traceInstant: .device)
        case .exit:
            Outputs(isDecision: true, traceInstant: .app, handlerRun: .end, laneMark: true, decisionRow: true)
        case .memoryWarning: Outputs(isDecision: true, traceInstant: .app, decisionRow: true)
        case .pressure: Outputs(isDecision: true, traceInstant: .device, setsPressureLevel: true)
        case .reclaim: Outputs(isDecision: true, traceInstant: .device, decisionRow: true)
        case .handlerStart: Outputs(handlerRun: .start)
        case .handlerEnd: Outputs(handlerRun: .end)
        }
    }
}
