/// Every number of an `Encodable` value as dotted paths, the names and values its JSON form has
/// (`MetricExtractor.flatten(json:)`: what JSONEncoder writes, read back), without the JSON: a sweep
/// reads the metrics of every run, compare and check those of two reports and of every app.
/// Strings, nulls and arrays are skipped, as there; a boolean counts as 1 or 0.
///
/// Paths are numbers of a ``MetricNames`` table: a report's thousands of apps have the same few
/// dozen paths, so each path is written out once, when the table first meets it, and an app's
/// numbers come out as (path number, value) with no string made per metric.
public struct MetricFlattener {
    /// Paths begin with `prefix` and a dot, or with the first key when `prefix` is empty.
    public static func flatten<T: Encodable>(_ value: T, prefix: String, into out: inout [(String, Double)]) {
        let names = MetricNames()
        var found: [(name: Int, value: Double)] = []
        flatten(value, names: names, into: &found)
        out += found.map { found in
            let path = names[found.name]
            return (prefix.isEmpty || path.isEmpty ? prefix + path : prefix + "." + path, found.value)
        }
    }

    /// Appends each number of `value` as the number of its path in `names` and its value.
    public static func flatten<T: Encodable>(_ value: T, names: MetricNames, into out: inout [(name: Int, value: Double)]) {
        let sink = Sink(names: names)
        swap(&sink.values, &out)
        try? value.encode(to: FlatEncoder(sink: sink, path: MetricNames.root))
        swap(&sink.values, &out)
    }

    /// A `Float` as its JSON text reads back: 0.1 as 0.1, not as 0.10000000149011612.
    static func double(_ value: Float) -> Double { Double("\(value)") ?? Double(value) }

    final class Sink {
        let names: MetricNames
        var values: [(name: Int, value: Double)] = []

        init(names: MetricNames) { self.names = names }
    }

    struct FlatEncoder: Encoder {
        let sink: Sink
        let path: Int
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            KeyedEncodingContainer(Keyed<Key>(sink: sink, path: path))
        }
        func unkeyedContainer() -> any UnkeyedEncodingContainer { Skip(path: path) }
        func singleValueContainer() -> any SingleValueEncodingContainer { Single(sink: sink, path: path) }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let sink: Sink
        let path: Int
        var codingPath: [any CodingKey] { [] }

        func child(_ key: Key) -> Int { sink.names.child(of: path, key.stringValue) }
        mutating func encodeNil(forKey key: Key) {}
        mutating func encode(_ value: Bool, forKey key: Key) { sink.values.append((child(key), value ? 1 : 0)) }
        mutating func encode(_ value: String, forKey key: Key) {}
        mutating func encode(_ value: Double, forKey key: Key) { sink.values.append((child(key), value)) }
        mutating func encode(_ value: Float, forKey key: Key) { sink.values.append((child(key), MetricFlattener.double(value))) }
        mutating func encode(_ value: Int, forKey key: Key) { sink.values.append((child(key), Double(value))) }
        mutating func encode(_ value: Int8, forKey key: Key) { sink.values.append((child(key), Double(value))) }
        mutating func encode(_ value: Int16, forKey key: Key) { sink.values.append((child(key), Double(value))) }
        mutating func encode(_ value: Int32, forKey key: Key) { sink.values.append((child(key), Double(value))) }
        mutating func encode(_ value: Int64, forKey key: Key) { sink.values.append((child(key), Double(value))) }
        mutating func encode(_ value: UInt, forKey key: Key) { sink.values.append((child(key), Double(value))) }
        mutating func encode(_ value: UInt8, forKey key: Key) { sink.values.append((child(key), Double(value))) }
        mutating func encode(_ value: UInt16, forKey key: Key) { sink.values.append((child(key), Double(value))) }
        mutating func encode(_ value: UInt32, forKey key: Key) { sink.values.append((child(key), Double(value))) }
        mutating func encode(_ value: UInt64, forKey key: Key) { sink.values.append((child(key), Double(value))) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try value.encode(to: FlatEncoder(sink: sink, path: child(key)))
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(Keyed<NestedKey>(sink: sink, path: child(key)))
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { Skip(path: child(key)) }
        mutating func superEncoder() -> any Encoder { FlatEncoder(sink: sink, path: path) }
        mutating func superEncoder(forKey key: Key) -> any Encoder { FlatEncoder(sink: sink, path: child(key)) }
    }

    /// A value encoded on its own (a raw-value enum, a wrapper): numbers count, strings do not.
    struct Single: SingleValueEncodingContainer {
        let sink: Sink
        /// The value's path; a value encoded alone at the top has the empty path.
        let path: Int
        var codingPath: [any CodingKey] { [] }

        init(sink: Sink, path: Int) {
            self.sink = sink
            self.path = path == MetricNames.root ? sink.names.number(of: "") : path
        }

        mutating func encodeNil() {}
        mutating func encode(_ value: Bool) { sink.values.append((path, value ? 1 : 0)) }
        mutating func encode(_ value: String) {}
        mutating func encode(_ value: Double) { sink.values.append((path, value)) }
        mutating func encode(_ value: Float) { sink.values.append((path, MetricFlattener.double(value))) }
        mutating func encode(_ value: Int) { sink.values.append((path, Double(value))) }
        mutating func encode(_ value: Int8) { sink.values.append((path, Double(value))) }
        mutating func encode(_ value: Int16) { sink.values.append((path, Double(value))) }
        mutating func encode(_ value: Int32) { sink.values.append((path, Double(value))) }
        mutating func encode(_ value: Int64) { sink.values.append((path, Double(value))) }
        mutating func encode(_ value: UInt) { sink.values.append((path, Double(value))) }
        mutating func encode(_ value: UInt8) { sink.values.append((path, Double(value))) }
        mutating func encode(_ value: UInt16) { sink.values.append((path, Double(value))) }
        mutating func encode(_ value: UInt32) { sink.values.append((path, Double(value))) }
        mutating func encode(_ value: UInt64) { sink.values.append((path, Double(value))) }
        mutating func encode<T: Encodable>(_ value: T) throws { try value.encode(to: FlatEncoder(sink: sink, path: path)) }
    }

    /// Arrays are not metrics: everything in them is dropped.
    struct Skip: UnkeyedEncodingContainer {
        let path: Int
        var codingPath: [any CodingKey] { [] }
        var count = 0
        mutating func encodeNil() {}
        mutating func encode<T: Encodable>(_ value: T) throws { count += 1 }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(Keyed<NestedKey>(sink: Sink(names: MetricNames()), path: MetricNames.root))
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { Skip(path: path) }
        mutating func superEncoder() -> any Encoder { FlatEncoder(sink: Sink(names: MetricNames()), path: MetricNames.root) }
    }
}

/// The dotted paths of metrics, each kept once and known by a number, its index in the table.
/// Shared by the reports of one comparison so that equal paths have equal numbers.
public final class MetricNames {
    /// The number of the empty path, above every key.
    public static let root = -1

    /// The paths by number.
    public private(set) var paths: [String] = []
    private var children: [Child: Int] = [:]
    private var numbers: [String: Int] = [:]

    struct Child: Hashable {
        var parent: Int
        var key: String
    }

    public init() {}

    /// The path of number `name`.
    public subscript(name: Int) -> String { paths[name] }

    /// The number of the path `parent`'s followed by a dot and `key` (`key` alone below ``root``).
    public func child(of parent: Int, _ key: String) -> Int {
        if let known = children[Child(parent: parent, key: key)] { return known }
        let name = number(of: parent == Self.root ? key : paths[parent] + "." + key)
        children[Child(parent: parent, key: key)] = name
        return name
    }

    /// The number of `path`, given it when it has none yet.
    public func number(of path: String) -> Int {
        if let known = numbers[path] { return known }
        paths.append(path)
        numbers[path] = paths.count - 1
        return paths.count - 1
    }
}
