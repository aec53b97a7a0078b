import Foundation

extension SamplingProfile {
    /// The profile as an uncompressed pprof `profile.proto` message (github.com/google/pprof,
    /// `proto/profile.proto`), for `go tool pprof` once gzipped.
    ///
    /// - Sample types `samples/count` and `cpu/nanoseconds` (count × the sampling period); the
    ///   period type is `cpu/nanoseconds`.
    /// - One `Function` and one `Location` (with one `Line`) per frame; the frame's module is the
    ///   function's file name.
    /// - One `Sample` per distinct stack of each (app, handler), leaf first as pprof wants, with
    ///   string labels `app`, `handler` and `kernel`.
    /// - With programs' allocations (spec §8.1), five more sample types, named as Go's heap
    ///   profiles name them: `alloc_objects/count` and `alloc_space/bytes` (everything
    ///   allocated), `inuse_objects/count` and `inuse_space/bytes` (still held when the program
    ///   ended: its leaks), and `peak_space/bytes` (in use at the program's peak), one `Sample`
    ///   per allocation stack; CPU samples carry 0 for them and allocation samples 0 for the CPU
    ///   types. `cpu` stays the default (`go tool pprof -sample_index=inuse_space` picks another).
    public func makePProfProto() -> Data {
        var strings = StringTable()
        let rate = sampler.achievedRateHz > 0 ? sampler.achievedRateHz : sampler.requestedRateHz
        let period = rate > 0 ? Int64((1e9 / rate).rounded()) : 1
        var out = ProtoWriter()
        let metrics: [(type: (String, String), value: (AllocationStack) -> Int64)] = hasAllocations ? [
            (AllocationMetric.allocations.pprofType, { AllocationMetric.allocations.value(of: $0) }),
            (AllocationMetric.allocatedBytes.pprofType, { AllocationMetric.allocatedBytes.value(of: $0) }),
            (("inuse_objects", "count"), { $0.leakedBlocks }),
            (AllocationMetric.leakedBytes.pprofType, { AllocationMetric.leakedBytes.value(of: $0) }),
            (AllocationMetric.peakBytes.pprofType, { AllocationMetric.peakBytes.value(of: $0) }),
        ] : []
        let types = [("samples", "count"), ("cpu", "nanoseconds")] + metrics.map(\.type)
        for (type, unit) in types {
            out.message(1) { v in
                v.int(1, strings[type])
                v.int(2, strings[unit])
            }
        }
        let labelKeys = (app: strings["app"], handler: strings["handler"], kernel: strings["kernel"])
        for handler in handlers {
            let labels = [(labelKeys.app, strings[handler.app]), (labelKeys.handler, strings[handler.handler]),
                          (labelKeys.kernel, strings[handler.kernel])]
            for stack in handler.stacks where stack.count > 0 {
                out.message(2) { s in
                    s.packedUInts(1, stack.frames.reversed().map { UInt64($0 + 1) })
                    s.packedInts(2, [Int64(stack.count), Int64(stack.count) * period] + metrics.map { _ in 0 })
                    Self.label(&s, labels)
                }
            }
            for stack in handler.allocations?.stacks ?? [] {
                out.message(2) { s in
                    s.packedUInts(1, stack.frames.reversed().map { UInt64($0 + 1) })
                    s.packedInts(2, [0, 0] + metrics.map { $0.value(stack) })
                    Self.label(&s, labels)
                }
            }
        }
        for index in frames.indices {
            let id = UInt64(index + 1)
            out.message(4) { l in
                l.uint(1, id)
                l.message(4) { line in
                    line.uint(1, id)
                    line.int(2, Int64(frames[index].line ?? 0))
                }
            }
        }
        for (index, frame) in frames.enumerated() {
            let name = strings[frame.name]
            let file = strings[frame.file ?? frame.module]
            out.message(5) { f in
                f.uint(1, UInt64(index + 1))
                f.int(2, name)
                f.int(3, name)
                f.int(4, file)
            }
        }
        out.message(11) { v in
            v.int(1, strings["cpu"])
            v.int(2, strings["nanoseconds"])
        }
        out.int(10, sampler.sampledWallMicroseconds * 1000)
        out.int(12, period)
        if hasAllocations { out.int(14, strings["cpu"]) }  // default_sample_type
        for string in strings.all {
            out.bytes(6, Array(string.utf8))
        }
        return Data(out.bytes)
    }
}

extension SamplingProfile {
    fileprivate static func label(_ sample: inout ProtoWriter, _ labels: [(Int64, Int64)]) {
        for (key, value) in labels {
            sample.message(3) { l in
                l.int(1, key)
                l.int(2, value)
            }
        }
    }
}

/// pprof's string table: index 0 is the empty string, each string once.
struct StringTable {
    private(set) var all: [String] = [""]
    private var index: [String: Int64] = ["": 0]

    subscript(string: String) -> Int64 {
        mutating get {
            if let i = index[string] { return i }
            let i = Int64(all.count)
            all.append(string)
            index[string] = i
            return i
        }
    }
}

/// The few protobuf wire-format writers profile.proto needs (varints, packed varints,
/// length-delimited bytes and nested messages). Zero scalars are left out, as proto3 does.
struct ProtoWriter {
    var bytes: [UInt8] = []

    mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    mutating func key(_ field: Int, _ wireType: UInt64) {
        varint(UInt64(field) << 3 | wireType)
    }

    mutating func uint(_ field: Int, _ value: UInt64) {
        guard value != 0 else { return }
        key(field, 0)
        varint(value)
    }

    mutating func int(_ field: Int, _ value: Int64) {
        guard value != 0 else { return }
        key(field, 0)
        varint(UInt64(bitPattern: value))
    }

    mutating func bytes(_ field: Int, _ data: [UInt8]) {
        key(field, 2)
        varint(UInt64(data.count))
        bytes.append(contentsOf: data)
    }

    mutating func packedUInts(_ field: Int, _ values: [UInt64]) {
        var inner = ProtoWriter()
        for v in values { inner.varint(v) }
        bytes(field, inner.bytes)
    }

    mutating func packedInts(_ field: Int, _ values: [Int64]) {
        packedUInts(field, values.map { UInt64(bitPattern: $0) })
    }

    mutating func message(_ field: Int, _ body: (inout ProtoWriter) -> Void) {
        var inner = ProtoWriter()
        body(&inner)
        bytes(field, inner.bytes)
    }
}
