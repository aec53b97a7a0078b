import Foundation
import MemprofProfile

/// Turns the addresses a program recorded into frames, from the objects it had loaded: names
/// from ELF symbols, demangled (Swift, C++ and Rust's legacy scheme) and shortened as for
/// kernels, and file:line from DWARF through libdw. memprof's own frames (the preload
/// library's hooks and signal handler) are removed from the innermost end.
final class ProgramSymbolicator {
    static let preloadModule = "libmemprof-preload.so"

    private let modules: [ProgramModule]
    private let dwarf: DwarfSymbolizer
    private var tables: [String: ELFSymbolTable?] = [:]
    private var cache: [UInt: Frame] = [:]

    init(modules: [ProgramModule]) {
        self.modules = modules.sorted { $0.low < $1.low }
        dwarf = DwarfSymbolizer(objects: modules.map { ($0.path, $0.bias) })
    }

    /// The frames of a recorded stack (innermost first), root first, without memprof's frames.
    /// `exactFirst`: the first address is an interrupted instruction, not a return address.
    func frames(_ addresses: [UInt], exactFirst: Bool) -> [Frame] {
        var frames: [Frame] = []
        frames.reserveCapacity(addresses.count)
        var leading = true
        for (index, address) in addresses.enumerated() {
            let exact = index == 0 && exactFirst
            let frame = frame(for: exact || address == 0 ? address : address - 1)
            if leading && frame.module == Self.preloadModule { continue }
            leading = false
            frames.append(frame)
        }
        return frames.reversed()
    }

    private func frame(for address: UInt) -> Frame {
        if let frame = cache[address] { return frame }
        let frame = resolve(address)
        cache[address] = frame
        return frame
    }

    private func module(for address: UInt) -> ProgramModule? {
        var low = 0, high = modules.count
        while low < high {
            let middle = (low + high) / 2
            if modules[middle].low <= address { low = middle + 1 } else { high = middle }
        }
        guard low > 0, address < modules[low - 1].high else { return nil }
        return modules[low - 1]
    }

    private func resolve(_ address: UInt) -> Frame {
        guard let module = module(for: address) else {
            return Frame(name: "0x" + String(address, radix: 16), module: "[unknown]")
        }
        let name = URL(fileURLWithPath: module.path).lastPathComponent
        let location = dwarf.locate(address)
        var symbol = location?.symbol
        if symbol == nil {
            if tables[module.path] == nil { tables[module.path] = .some(ELFSymbolTable(path: module.path)) }
            symbol = tables[module.path]??.symbolName(at: UInt64(address &- module.bias))
        }
        // Versioned symbols (`__libc_start_main@@GLIBC_2.34`) are named without their version.
        if let at = symbol?.firstIndex(of: "@"), at != symbol?.startIndex { symbol = String(symbol![..<at]) }
        guard let symbol, !symbol.isEmpty else {
            return Frame(name: name + "+0x" + String(address &- module.bias, radix: 16), module: name,
                         file: location?.file, line: location?.line)
        }
        return Frame(name: Self.readableName(symbol), module: name, file: location?.file, line: location?.line)
    }

    /// A symbol demangled and shortened as for kernels; Rust's legacy scheme (`_ZN…17h<hash>E`,
    /// demangled as C++) also loses its trailing `::h<16 hex digits>` hash.
    static func readableName(_ symbol: String) -> String {
        let name = Symbolicator.readableName(symbol)
        guard symbol.hasPrefix("_ZN"), name.count > 19 else { return name }
        let tail = name.suffix(19)
        guard tail.hasPrefix("::h"), tail.dropFirst(3).allSatisfy(\.isHexDigit) else { return name }
        return String(name.dropLast(19))
    }
}
