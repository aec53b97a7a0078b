import MemprofCore
import MemprofInput
import MemprofYAMLReader

/// One change to a workload's keys before it is validated: `memprof run --set apps.mail.launch.footprint=60MB`,
/// `--device`, `--policy`, and every axis of a sweep's `matrix` (spec §12) are overrides.
///
/// The value is YAML text put into the workload's tree at `keyPath` before the tree is parsed, so
/// an override is validated exactly as if the file said it; errors about it point at where the
/// override was written (the command line, or a sweep file's line and column), not at the workload.
///
/// Key paths are dotted keys (`apps.mail.fetch.interval`), with `[n]` for a list entry
/// (`script[3].at`). Entries of named maps (`apps`, `objects`) must exist; other keys that the
/// file leaves out are created, and a preset name (`device: iphone-6-plus`) becomes
/// `{preset: iphone-6-plus}` when a key below it is set.
public struct WorkloadOverride: Sendable, Equatable {
    /// Where an override was written, for its error messages.
    public struct Origin: Sendable, Equatable {
        /// A file name, or the command-line argument itself (`--set k=v`).
        public var file: String
        /// Where its key path was written (1-based; 0 on the command line).
        public var keyLine: Int
        public var keyColumn: Int
        /// Where its value was written.
        public var valueLine: Int
        public var valueColumn: Int

        public init(file: String, keyLine: Int = 0, keyColumn: Int = 0, valueLine: Int = 0, valueColumn: Int = 0) {
            self.file = file
            self.keyLine = keyLine
            self.keyColumn = keyColumn
            self.valueLine = valueLine
            self.valueColumn = valueColumn
        }
    }

    public var keyPath: String
    /// The value as YAML text: `60MB`, `[fetch, audio]`, `{release: 10MB}`.
    public var value: String
    public var origin: Origin

    public init(keyPath: String, value: String, origin: Origin) {
        self.keyPath = keyPath
        self.value = value
        self.origin = origin
    }

    /// The overrides of `--device`, `--policy` and `--set`, in the order they apply: device,
    /// policy, then each `--set` in order (a later one wins).
    public static func list(device: String?, policy: String?, assignments: [String]) throws -> [WorkloadOverride] {
        var out: [WorkloadOverride] = []
        if let device { out.append(.preset("device", device)) }
        if let policy { out.append(.preset("policy", policy)) }
        for assignment in assignments { out.append(try parse(assignment: assignment)) }
        return out
    }

    /// Parses a command-line `KEY.PATH=VALUE`.
    ///
    /// - Throws: `WorkloadError` naming the argument when it has no `=` or an empty key path.
    public static func parse(assignment: String, option: String = "--set") throws -> WorkloadOverride {
        let origin = Origin(file: "\(option) \(assignment)")
        guard let equals = assignment.firstIndex(of: "=") else {
            throw WorkloadError(file: origin.file, line: 0, column: 0, keyPath: "",
                                message: "expected KEY.PATH=VALUE, for example apps.mail.launch.footprint=60MB")
        }
        let key = String(assignment[..<equals]).trimmingSpaces
        let override = WorkloadOverride(keyPath: key, value: String(assignment[assignment.index(after: equals)...]),
                                        origin: origin)
        _ = try override.segments()
        return override
    }

    /// `--device PRESET` and `--policy NAME`: the top-level key set to a preset name.
    public static func preset(_ key: String, _ name: String) -> WorkloadOverride {
        WorkloadOverride(keyPath: key, value: name, origin: Origin(file: "--\(key) \(name)"))
    }

    /// How `memprof run` spells this override: `--device ipad-air-2`, `--set apps.mail.launch.footprint=60MB`.
    public var commandLineArguments: [String] {
        let simple = !value.contains(where: { " \n\t{}[],:#'\"".contains($0) })
        if (keyPath == "device" || keyPath == "policy") && simple { return ["--\(keyPath)", value] }
        return ["--set", "\(keyPath)=\(value)"]
    }

    /// Checks the key path's spelling (keys joined by `.`, `[n]` indices), not that the keys exist.
    public func checkKeyPath() throws {
        _ = try segments()
    }

    /// One step of a key path.
    enum Segment: Equatable {
        case key(String)
        case index(Int)
    }

    func error(_ message: String, atKey: Bool = true) -> WorkloadError {
        WorkloadError(file: origin.file, line: atKey ? origin.keyLine : origin.valueLine,
                      column: atKey ? origin.keyColumn : origin.valueColumn, keyPath: keyPath, message: message)
    }

    func segments() throws -> [Segment] {
        var out: [Segment] = []
        guard !keyPath.isEmpty else { throw error("empty key path") }
        for part in keyPath.split(separator: ".", omittingEmptySubsequences: false) {
            var rest = Substring(part)
            let name = rest.prefix { $0 != "[" }
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
                throw error("'\(part)' is not a key; a key path is keys joined by '.', such as apps.mail.launch.footprint")
            }
            out.append(.key(String(name)))
            rest = rest.dropFirst(name.count)
            while !rest.isEmpty {
                guard rest.first == "[", let close = rest.firstIndex(of: "]"),
                      let n = Int(rest[rest.index(after: rest.startIndex)..<close]), n >= 0 else {
                    throw error("'\(part)' has a bad list index; write key[0], key[1]…")
                }
                out.append(.index(n))
                rest = rest[rest.index(after: close)...]
            }
        }
        return out
    }
}

/// Applies overrides to a composed workload tree (a ``YAMLTree``, edited into a changed copy),
/// and relocates the parser's errors about them.
enum OverrideApplier {
    /// Keys whose entries are names the workload defines: an override must name an existing one.
    static let namedMaps: Set<String> = ["apps", "objects"]
    /// Presets that become `{preset: NAME}` when a key below them is set, and what an absent one means.
    static let presetDefaults = ["device": "iphone-6-plus", "policy": "seed-2015"]

    static func apply(_ overrides: [WorkloadOverride], to root: NodeReader) throws -> NodeReader {
        var tree = YAMLTree.Editor(root.tree)
        var kept: (override: WorkloadOverride, preset: String, os: Int32)?
        for override in overrides {
            var value = try valueNode(override, in: &tree)
            // `--device NAME` (or a matrix's `device:` value) changes the hardware, not the OS the
            // workload states: its `osVersion` stays, as `{preset: NAME, osVersion: …}`.
            if override.keyPath == "device", let preset = tree.text(value), let os = statedOS(in: tree) {
                value = tree.add(.mapping, like: nil, children: [tree.add(scalar: "preset"), value,
                                                                 tree.add(scalar: "osVersion"), os])
                kept = (override, preset, os)
            }
            tree.root = try set(value, at: try override.segments()[...], in: tree.root, of: &tree, override: override, walked: [])
        }
        if let kept { try checkKeptOS(kept.os, on: kept.preset, by: kept.override, in: tree, file: root.file) }
        return NodeReader(tree: tree.tree, file: root.file)
    }

    /// The node of the tree's `device.osVersion`, when the device is a mapping that states one.
    static func statedOS(in tree: YAMLTree.Editor) -> Int32? {
        func value(_ key: String, in node: Int32) -> Int32? {
            guard tree.kind(node) == .mapping else { return nil }
            let pairs = tree.children(node)
            return stride(from: 0, to: pairs.count, by: 2).first { tree.isKey(pairs[$0], key) }.map { pairs[$0 + 1] }
        }
        return value("device", in: tree.root).flatMap { value("osVersion", in: $0) }
    }

    /// A kept `osVersion` (still the device's after every override) that the new preset cannot
    /// run is refused in a sentence at the override that named the preset, naming where the
    /// workload states the OS; other problems are the parser's to report.
    static func checkKeptOS(_ os: Int32, on preset: String, by override: WorkloadOverride, in tree: YAMLTree.Editor,
                            file: String) throws {
        guard statedOS(in: tree) == os, let text = tree.text(os), let major = Device.version(text)?.major,
              !DeviceModel.skippedMajors.contains(major),
              let model = DeviceModel.named(preset), let runs = model.supportedMajors,
              !runs.contains(major) else { return }
        let mark = tree.mark(os)
        let stated = mark.line > 0 ? " (\(file):\(mark.line):\(mark.column))" : ""
        throw override.error("the workload states osVersion '\(text)'\(stated), which the \(model.model) does not run "
            + "(\(model.shippedOS) to \(model.latestOS)); set device.osVersion to one it runs as well, "
            + "such as device.osVersion='\(model.latestOS)'", atKey: false)
    }

    /// The override's value, composed as the file's text is and added without marks, so errors
    /// about it are recognised as its own.
    static func valueNode(_ override: WorkloadOverride, in tree: inout YAMLTree.Editor) throws -> Int32 {
        do {
            return try tree.add(yaml: override.value)
        } catch {
            throw override.error("the value '\(override.value)' is not valid YAML", atKey: false)
        }
    }

    /// Puts `value` at `path` below `node`: the changed copy of `node` (a new entry, as every
    /// collection on the way is).
    static func set(_ value: Int32, at path: ArraySlice<WorkloadOverride.Segment>, in node: Int32,
                    of tree: inout YAMLTree.Editor, override: WorkloadOverride, walked: [String]) throws -> Int32 {
        guard let first = path.first else { return value }
        let rest = path.dropFirst()
        let here = walked.joined(separator: ".")
        switch first {
        case .index(let n):
            guard tree.kind(node) == .sequence else {
                throw override.error("'\(here)' is not a list, so it has no entry [\(n)]")
            }
            var items = tree.children(node)
            guard n < items.count else {
                throw override.error("'\(here)' has \(items.count) entries, so there is no [\(n)]")
            }
            items[n] = try set(value, at: rest, in: items[n], of: &tree, override: override, walked: walked + ["[\(n)]"])
            return tree.add(.sequence, like: node, children: items)
        case .key(let key):
            // Keys and values alternately; a preset's name becomes `{preset: NAME}`, a new mapping.
            var pairs: [Int32]
            var like: Int32? = node
            switch tree.kind(node) {
            case .mapping:
                pairs = tree.children(node)
            case .scalar where walked.count == 1 && presetDefaults[walked[0]] != nil:
                pairs = [tree.add(scalar: "preset"), node]
                like = nil
            default:
                throw override.error("'\(here)' is a value, not a mapping, so it has no key '\(key)'")
            }
            let at = stride(from: 0, to: pairs.count, by: 2).first { tree.isKey(pairs[$0], key) }
            let parentName = walked.last
            if at == nil, let parentName, namedMaps.contains(parentName) {
                let names = stride(from: 0, to: pairs.count, by: 2).compactMap { tree.text(pairs[$0]) }
                var message = "no \(parentName == "apps" ? "app" : "object") '\(key)' in the workload"
                if let near = suggestion(for: key, among: names) { message += " (did you mean '\(near)'?)" }
                message += names.isEmpty ? "" : "; it has: \(names.joined(separator: ", "))"
                throw override.error(message)
            }
            var child: Int32
            if let at {
                child = pairs[at + 1]
            } else if rest.first != nil, walked.isEmpty, let preset = presetDefaults[key] {
                child = tree.add(.mapping, like: nil, children: [tree.add(scalar: "preset"), tree.add(scalar: preset)])
            } else {
                child = tree.add(.mapping, like: nil, children: [])
            }
            child = try set(value, at: rest, in: child, of: &tree, override: override, walked: walked + [key])
            if let at {
                pairs[at + 1] = child
            } else {
                pairs += [tree.add(scalar: key), child]
            }
            return tree.add(.mapping, like: like, children: pairs)
        }
    }

    /// Rewrites an error the parser raised at a node an override put in place, so it names the
    /// override's origin; other errors pass unchanged. The last override wins, as it did in the tree.
    static func relocate(_ error: WorkloadError, _ overrides: [WorkloadOverride]) -> WorkloadError {
        guard error.line == 0 else { return error }
        let path = error.keyPath
        for override in overrides.reversed() {
            let key = override.keyPath
            let atValue = path == key || path.hasPrefix(key + ".") || path.hasPrefix(key + "[")
            let above = key.hasPrefix(path + ".") || key.hasPrefix(path + "[") || path.isEmpty
            guard atValue || above else { continue }
            var located = override.error(error.message, atKey: !atValue)
            located.keyPath = path.isEmpty ? key : path
            return located
        }
        return error
    }
}

/// The nearest of some names to a misspelt one, for "did you mean" in other files' errors
/// (sweep files), by the same rule workload errors use.
public enum Spelling {
    public static func nearest(to word: String, among candidates: [String]) -> String? {
        suggestion(for: word, among: candidates)
    }
}

/// SHA-256 of text as lowercase hex, as workload digests are computed (sweep fingerprints use it).
public enum SHA256Hex {
    public static func of(_ text: String) -> String {
        WorkloadLoader.sha256Hex(Array(text.utf8))
    }
}
