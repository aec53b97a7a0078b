/// Every number of an `Encodable` value as dotted paths, the names and values its JSON form has
/// (`MetricExtractor.flatten(json:)`: what JSONEncoder writes, read back), without the JSON: a sweep
/// reads the metrics of every run, compare and check those of two reports and of every app.
/// Strings, nulls and arrays are skipped, as there; a boolean counts as 1 or 0.
public struct MetricFlattener {
    /// Paths begin with `prefix` and a dot, or with the first key when `prefix` is empty.
    public static func flatten<T: Encodable>(_ value: T, prefix: String, into out: inout [(String, Double)]) {
        let sink = Sink()
        swap(&sink.values, &out)
        try? value.encode(to: FlatEncoder(sink: sink, path: prefix))
        swap(&sink.values, &out)
    }

    /// A `Float` as its JSON text reads back: 0.1 as 0.1, not as 0.10000000149011612.
    static func double(_ value: Float) -> Double { Double("\(value)") ?? Double(value) }

    final class Sink {
        var values: [(String, Double)] = []
    }

    struct FlatEncoder: Encoder {
        let sink: Sink
        let path: String
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
        let path: String
        var codingPath: [any CodingKey] { [] }

        /// With an empty prefix, the first key alone.
        func child(_ key: Key) -> String { path.isEmpty ? key.stringValue : path + "." + key.stringValue }
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
        let path: String
        var codingPath: [any CodingKey] { [] }
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
        let path: String
        var codingPath: [any CodingKey] { [] }
        var count = 0
        mutating func encodeNil() {}
        mutating func encode<T: Encodable>(_ value: T) throws { count += 1 }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(Keyed<NestedKey>(sink: Sink(), path: path))
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { Skip(path: path) }
        mutating func superEncoder() -> any Encoder { FlatEncoder(sink: Sink(), path: path) }
    }
}
