import Foundation

/// The function symbols of one ELF file (64-bit, little-endian), private ones included: read
/// from `.symtab` when the file has one, plus `.dynsym`. `dladdr` sees only exported symbols,
/// and none of an executable's unless it was linked with `--export-dynamic`.
struct ELFSymbolTable {
    private struct Symbol {
        var start: UInt64
        var end: UInt64
        var nameOffset: Int
    }

    private let data: Data
    private let symbols: [Symbol]

    /// Reads the file at `path`; nil when it is not a readable 64-bit little-endian ELF file.
    init?(path: String) {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped),
            data.count > 64
        else { return nil }
        self.data = data
        guard let symbols = Self.readFunctionSymbols(data) else { return nil }
        self.symbols = symbols
    }

    /// The symbol covering `address` (an offset in the file's own address space, before the
    /// load bias), as a raw (mangled) name.
    func symbolName(at address: UInt64) -> String? {
        var low = 0
        var high = symbols.count
        while low < high {  // first symbol starting after address
            let middle = (low + high) / 2
            if symbols[middle].start <= address { low = middle + 1 } else { high = middle }
        }
        var index = low - 1
        while index >= 0 {
            let symbol = symbols[index]
            if address < symbol.end { return string(at: symbol.nameOffset) }
            // Aliases share a start: look at the others before giving up.
            guard index > 0, symbols[index - 1].start == symbol.start else { return nil }
            index -= 1
        }
        return nil
    }

    private func string(at offset: Int) -> String? {
        data.withUnsafeBytes { raw -> String? in
            guard offset >= 0, offset < raw.count else { return nil }
            let bytes = raw[offset...]
            let end = bytes.firstIndex(of: 0) ?? raw.count
            return String(decoding: raw[offset..<end], as: UTF8.self)
        }
    }

    private static func readFunctionSymbols(_ data: Data) -> [Symbol]? {
        data.withUnsafeBytes { raw -> [Symbol]? in
            func read<T: FixedWidthInteger>(_ offset: Int, as type: T.Type) -> T {
                guard offset >= 0, offset + MemoryLayout<T>.size <= raw.count else { return 0 }
                return T(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: T.self))
            }
            guard raw[0] == 0x7F, raw[1] == 0x45, raw[2] == 0x4C, raw[3] == 0x46,
                raw[4] == 2, raw[5] == 1
            else { return nil }
            let sectionTable = Int(read(0x28, as: UInt64.self))
            let sectionSize = Int(read(0x3A, as: UInt16.self))
            let sectionCount = Int(read(0x3C, as: UInt16.self))
            guard sectionSize >= 64, sectionTable > 0 else { return nil }

            var symbols: [Symbol] = []
            for section in 0..<sectionCount {
                let header = sectionTable + section * sectionSize
                let type = read(header + 4, as: UInt32.self)
                guard type == 2 || type == 11 else { continue }  // SHT_SYMTAB, SHT_DYNSYM
                let offset = Int(read(header + 24, as: UInt64.self))
                let size = Int(read(header + 32, as: UInt64.self))
                let link = Int(read(header + 40, as: UInt32.self))
                let entrySize = max(Int(read(header + 56, as: UInt64.self)), 24)
                let stringsHeader = sectionTable + link * sectionSize
                let strings = Int(read(stringsHeader + 24, as: UInt64.self))
                guard offset + size <= raw.count else { continue }
                var entry = offset
                while entry + 24 <= offset + size {
                    let info = raw[entry + 4]
                    let kind = info & 0xF
                    let sectionIndex = read(entry + 6, as: UInt16.self)
                    let value = read(entry + 8, as: UInt64.self)
                    let length = read(entry + 16, as: UInt64.self)
                    // STT_FUNC or STT_GNU_IFUNC, defined, with an address.
                    if kind == 2 || kind == 10, sectionIndex != 0, value != 0 {
                        let name = Int(read(entry, as: UInt32.self))
                        symbols.append(
                            Symbol(start: value, end: value + max(length, 1), nameOffset: strings + name))
                    }
                    entry += entrySize
                }
            }
            symbols.sort { ($0.start, $1.end) < ($1.start, $0.end) }
            return symbols
        }
    }
}
