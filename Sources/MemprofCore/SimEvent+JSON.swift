/// report.json's flat shape of an event (spec §10 `events`): `kind`, `atUs`, `app` and the keys
/// its payload fills, every other key left out. The one place typed payloads meet their words:
/// both report.json writers (the hand-written one and `JSONEncoder`) and the reader go through it.
extension SimEvent {
    /// An event as report.json's keys hold it; nil keys are left out.
    public struct Fields: Sendable, Hashable {
        public var action: String?
        public var app: String?
        public var atUs: Microseconds
        public var bytes: Bytes?
        public var callback: LifecycleCallback?
        public var candidates: [Candidate]?
        /// A transition's cause in ``StateCause/text``'s words.
        public var cause: String?
        public var compressedBytes: Bytes?
        public var detail: String?
        public var freedBytes: Bytes?
        public var from: AppState?
        public var handler: String?
        public var kind: Kind
        public var latencyUs: Microseconds?
        public var level: PressureLevel?
        public var neededBytes: Bytes?
        public var notification: String?
        public var object: String?
        public var reason: ExitReason?
        public var to: AppState?
        public var usedBytes: Bytes?

        public init(atUs: Microseconds, kind: Kind, app: String?) {
            self.atUs = atUs
            self.kind = kind
            self.app = app
        }
    }

    /// The event as report.json writes it.
    public var fields: Fields {
        var f = Fields(atUs: atUs, kind: kind, app: app)
        switch payload {
        case .transition(let from, let to, let cause):
            f.from = from
            f.to = to
            f.cause = cause?.text
        case .callback(let callback, let notification):
            f.callback = callback
            f.notification = notification
        case .launch(let kind, let bytes, let wake):
            f.detail = kind.rawValue
            f.bytes = bytes
            f.handler = wake?.rawValue
        case .resume(let kind, let latency):
            f.detail = kind.rawValue
            f.latencyUs = latency
        case .compression(let bytes, let compressedBytes, let freezer):
            f.bytes = bytes
            f.compressedBytes = compressedBytes
            f.usedBytes = freezer?.usedBytes
            f.detail = freezer?.detail
        case .decompression(let bytes), .eviction(let bytes):
            f.bytes = bytes
        case .exit(let reason, let from):
            f.reason = reason
            f.from = from
        case .memoryWarning(let cause, let freed):
            f.detail = cause.rawValue
            f.freedBytes = freed
        case .pressure(let level, let used):
            f.level = level
            f.usedBytes = used
        case .reclaim(let r):
            f.neededBytes = r.neededBytes
            f.freedBytes = r.freedBytes
            f.usedBytes = r.usedBytes
            f.candidates = r.candidates
        case .handlerStart(let activity, let bytes, let inForeground):
            f.handler = activity.rawValue
            f.bytes = bytes
            if inForeground { f.detail = Self.inForegroundDetail }
        case .handlerEnd(let activity, let outcome):
            f.handler = activity.rawValue
            f.detail = outcome.detail
        case .pushDelivered(let reason):
            f.detail = reason.rawValue
        case .ignored(let action, let reason):
            f.action = action
            f.detail = reason.detail
        case .objectShown(let object, let bytes):
            f.object = object
            f.bytes = bytes
        case .objectDismissed(let object, let outcome, let bytes):
            f.object = object
            f.detail = outcome.rawValue
            f.bytes = bytes
        case .notificationDelivery(let notification, let object, let observer):
            f.notification = notification
            f.object = object
            f.detail = observer.rawValue
        case .swap(let direction, let used, let bytes):
            f.detail = direction.rawValue
            f.usedBytes = used
            f.bytes = bytes
        case .processExit(let reason, let kind, let band, let bytes):
            f.reason = reason
            f.detail = Self.processDetail(kind, band: band)
            f.bytes = bytes
        case .processLaunch(let kind, let band, let bytes):
            f.detail = Self.processDetail(kind, band: band)
            f.bytes = bytes
        case .charging(let change):
            f.detail = change.rawValue
        }
        return f
    }

    /// A `processExit`'s `detail`: `daemon in band 1`.
    static func processDetail(_ kind: ProcessKind, band: Int) -> String { "\(kind.rawValue) in band \(band)" }

    /// The kind and band of a `processExit`'s `detail`, or nil.
    static func processKindAndBand(_ detail: String) -> (ProcessKind, Int)? {
        let words = detail.split(separator: " ")
        guard words.count == 4, words[1] == "in", words[2] == "band", let kind = ProcessKind(rawValue: String(words[0])),
              let band = Int(words[3]), (0...ProcessSpec.maxBand).contains(band) else { return nil }
        return (kind, band)
    }

    /// The `detail` of a handler that started in the foreground (a push to the foreground app).
    static let inForegroundDetail = "in the foreground"

    /// Why report.json's keys of an event do not make one.
    public struct FieldsError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The key missing or holding a value its kind does not have.
        public var key: String
        public var description: String
    }

    /// The event report.json's keys describe; throws naming the key that is missing or wrong.
    public init(_ f: Fields) throws {
        func need<T>(_ value: T?, _ key: String) throws -> T {
            guard let value else { throw FieldsError(key: key, description: "a \(f.kind.rawValue) event needs '\(key)'") }
            return value
        }
        func word<T>(_ parse: (String) -> T?, _ key: String = "detail") throws -> T {
            let words: String? = switch key {
            case "handler": f.handler
            case "cause": f.cause
            default: f.detail
            }
            let text = try need(words, key)
            guard let value = parse(text) else {
                throw FieldsError(key: key, description: "'\(text)' is not a \(key) of a \(f.kind.rawValue) event")
            }
            return value
        }
        let payload: Payload
        switch f.kind {
        case .transition:
            // A report of a memprof that did not record causes has none: the cause is absent.
            let cause = try f.cause.map { _ in try word(StateCause.init(text:), "cause") }
            payload = .transition(from: try need(f.from, "from"), to: try need(f.to, "to"), cause: cause)
        case .callback:
            payload = .callback(try need(f.callback, "callback"), notification: try need(f.notification, "notification"))
        case .launch:
            let wake = try f.handler.map { _ in try word(HandlerKind.init(rawValue:), "handler") }
            payload = .launch(try word(LaunchKind.init(rawValue:)), bytes: try need(f.bytes, "bytes"), wake: wake)
        case .resume:
            payload = .resume(try word(ResumeKind.init(rawValue:)), latencyUs: try need(f.latencyUs, "latencyUs"))
        case .compression:
            let freezer = try f.detail.map { _ in
                let used = try need(f.usedBytes, "usedBytes")
                return try word { FreezerDecision(detail: $0, usedBytes: used) }
            }
            payload = .compression(bytes: try need(f.bytes, "bytes"), compressedBytes: try need(f.compressedBytes, "compressedBytes"),
                                   freezer: freezer)
        case .decompression:
            payload = .decompression(bytes: try need(f.bytes, "bytes"))
        case .eviction:
            payload = .eviction(bytes: try need(f.bytes, "bytes"))
        case .exit:
            payload = .exit(try need(f.reason, "reason"), from: try need(f.from, "from"))
        case .memoryWarning:
            payload = .memoryWarning(try word(MemoryWarningCause.init(rawValue:)), freedBytes: try need(f.freedBytes, "freedBytes"))
        case .pressure:
            payload = .pressure(try need(f.level, "level"), usedBytes: try need(f.usedBytes, "usedBytes"))
        case .reclaim:
            payload = .reclaim(Reclaim(neededBytes: try need(f.neededBytes, "neededBytes"),
                                       freedBytes: try need(f.freedBytes, "freedBytes"),
                                       usedBytes: try need(f.usedBytes, "usedBytes"),
                                       candidates: try need(f.candidates, "candidates")))
        case .handlerStart:
            let inForeground = try f.detail.map { _ in try word { $0 == Self.inForegroundDetail ? true : nil } } ?? false
            payload = .handlerStart(try word(BackgroundActivity.init(rawValue:), "handler"), bytes: f.bytes,
                                    inForeground: inForeground)
        case .handlerEnd:
            payload = .handlerEnd(try word(BackgroundActivity.init(rawValue:), "handler"),
                                  outcome: try word(HandlerOutcome.init(detail:)))
        case .pushDelivered:
            payload = .pushDelivered(try word(PushDeliveredReason.init(rawValue:)))
        case .ignored:
            payload = .ignored(action: try need(f.action, "action"), reason: try word(IgnoredReason.init(detail:)))
        case .objectShown:
            payload = .objectShown(object: try need(f.object, "object"), bytes: try need(f.bytes, "bytes"))
        case .objectDismissed:
            payload = .objectDismissed(object: try need(f.object, "object"), outcome: try word(DismissalOutcome.init(rawValue:)),
                                       bytes: try need(f.bytes, "bytes"))
        case .notificationDelivery:
            payload = .notificationDelivery(notification: try need(f.notification, "notification"),
                                            object: try need(f.object, "object"),
                                            observer: try word(DeliveredObserver.init(rawValue:)))
        case .swap:
            payload = .swap(try word(SwapDirection.init(rawValue:)), usedBytes: try need(f.usedBytes, "usedBytes"),
                            bytes: try need(f.bytes, "bytes"))
        case .processExit:
            let (kind, band) = try word(Self.processKindAndBand)
            payload = .processExit(try need(f.reason, "reason"), kind: kind, band: band, bytes: try need(f.bytes, "bytes"))
        case .processLaunch:
            let (kind, band) = try word(Self.processKindAndBand)
            payload = .processLaunch(kind: kind, band: band, bytes: try need(f.bytes, "bytes"))
        case .charging:
            payload = .charging(try word(ChargerChange.init(rawValue:)))
        }
        self.init(atUs: f.atUs, app: f.app, payload)
    }
}

extension SimEvent: Codable {
    enum CodingKeys: String, CodingKey {
        case action, app, atUs, bytes, callback, candidates, cause, compressedBytes, detail, freedBytes, from, handler, kind,
             latencyUs, level, neededBytes, notification, object, reason, to, usedBytes
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        var f = Fields(atUs: try c.decode(Microseconds.self, forKey: .atUs), kind: try c.decode(Kind.self, forKey: .kind),
                       app: try c.decodeIfPresent(String.self, forKey: .app))
        f.action = try c.decodeIfPresent(String.self, forKey: .action)
        f.bytes = try c.decodeIfPresent(Bytes.self, forKey: .bytes)
        f.callback = try c.decodeIfPresent(LifecycleCallback.self, forKey: .callback)
        f.candidates = try c.decodeIfPresent([Candidate].self, forKey: .candidates)
        f.cause = try c.decodeIfPresent(String.self, forKey: .cause)
        f.compressedBytes = try c.decodeIfPresent(Bytes.self, forKey: .compressedBytes)
        f.detail = try c.decodeIfPresent(String.self, forKey: .detail)
        f.freedBytes = try c.decodeIfPresent(Bytes.self, forKey: .freedBytes)
        f.from = try c.decodeIfPresent(AppState.self, forKey: .from)
        f.handler = try c.decodeIfPresent(String.self, forKey: .handler)
        f.latencyUs = try c.decodeIfPresent(Microseconds.self, forKey: .latencyUs)
        f.level = try c.decodeIfPresent(PressureLevel.self, forKey: .level)
        f.neededBytes = try c.decodeIfPresent(Bytes.self, forKey: .neededBytes)
        f.notification = try c.decodeIfPresent(String.self, forKey: .notification)
        f.object = try c.decodeIfPresent(String.self, forKey: .object)
        f.reason = try c.decodeIfPresent(ExitReason.self, forKey: .reason)
        f.to = try c.decodeIfPresent(AppState.self, forKey: .to)
        f.usedBytes = try c.decodeIfPresent(Bytes.self, forKey: .usedBytes)
        do {
            try self.init(f)
        } catch let error as FieldsError {
            let key = CodingKeys(rawValue: error.key) ?? .kind
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath + [key], debugDescription: error.description))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        let f = fields
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(f.action, forKey: .action)
        try c.encodeIfPresent(f.app, forKey: .app)
        try c.encode(f.atUs, forKey: .atUs)
        try c.encodeIfPresent(f.bytes, forKey: .bytes)
        try c.encodeIfPresent(f.callback, forKey: .callback)
        try c.encodeIfPresent(f.candidates, forKey: .candidates)
        try c.encodeIfPresent(f.cause, forKey: .cause)
        try c.encodeIfPresent(f.compressedBytes, forKey: .compressedBytes)
        try c.encodeIfPresent(f.detail, forKey: .detail)
        try c.encodeIfPresent(f.freedBytes, forKey: .freedBytes)
        try c.encodeIfPresent(f.from, forKey: .from)
        try c.encodeIfPresent(f.handler, forKey: .handler)
        try c.encode(f.kind, forKey: .kind)
        try c.encodeIfPresent(f.latencyUs, forKey: .latencyUs)
        try c.encodeIfPresent(f.level, forKey: .level)
        try c.encodeIfPresent(f.neededBytes, forKey: .neededBytes)
        try c.encodeIfPresent(f.notification, forKey: .notification)
        try c.encodeIfPresent(f.object, forKey: .object)
        try c.encodeIfPresent(f.reason, forKey: .reason)
        try c.encodeIfPresent(f.to, forKey: .to)
        try c.encodeIfPresent(f.usedBytes, forKey: .usedBytes)
    }
}
