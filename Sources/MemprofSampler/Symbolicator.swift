import CSampler
import Foundation
import MemprofPlatform
import MemprofProfile

/// Turns sampled addresses into frames: demangled function names and module names.
///
/// Each address is looked up in the ELF symbol table of the object that holds it (the
/// executable's own `.symtab` included, so private Swift functions resolve too), then through
/// `dladdr` as a fallback. Names are demangled with the Swift runtime's `swift_demangle`, or
/// `__cxa_demangle` for C++.
final class Symbolicator {
    private var tables: [String: ELFSymbolTable?] = [:]
    private var frames: [UInt: Frame] = [:]
    private lazy var executablePath: String = RunningExecutable.path

    /// The frame of a code address. `isReturnAddress` is true for every frame but the
    /// interrupted one: a return address points after the call, so `address - 1` is looked up.
    func frame(for address: UInt, isReturnAddress: Bool) -> Frame {
        let lookup = isReturnAddress && address > 0 ? address - 1 : address
        if let frame = frames[lookup] { return frame }
        let frame = resolve(lookup)
        frames[lookup] = frame
        return frame
    }

    private func resolve(_ address: UInt) -> Frame {
        var bias: UInt = 0
        var rawPath: UnsafePointer<CChar>?
        var path = ""
        var name: String?
        if csampler_find_object(address, &bias, &rawPath) == 1 {
            path = rawPath.map { String(cString: $0) } ?? ""
            if path.isEmpty { path = executablePath }
            name = table(for: path)?.symbolName(at: UInt64(address - bias))
        }
        if name == nil {
            var symbol: UnsafePointer<CChar>?
            var symbolAddress: UInt = 0
            var dlPath: UnsafePointer<CChar>?
            if csampler_dladdr(address, &symbol, &symbolAddress, &dlPath) == 1 {
                name = symbol.map { String(cString: $0) }
                if path.isEmpty, let dlPath { path = String(cString: dlPath) }
            }
        }
        let module = path.isEmpty ? "[unknown]" : URL(fileURLWithPath: path).lastPathComponent
        guard let name, !name.isEmpty else {
            // No symbol: name it by its offset in the module, which stays the same from run to run.
            let offset = path.isEmpty ? address : address - bias
            return Frame(name: (path.isEmpty ? "" : module + "+") + "0x" + String(offset, radix: 16), module: module)
        }
        return Frame(name: Self.readableName(name), module: module)
    }

    private func table(for path: String) -> ELFSymbolTable? {
        if let cached = tables[path] { return cached }
        let table = ELFSymbolTable(path: path)
        tables[path] = table
        return table
    }

    /// Demangles a Swift or C++ symbol and shortens Swift names (see ``SwiftNameSimplifier``).
    static func readableName(_ symbol: String) -> String {
        let demangled = demangle(symbol)
        return demangled == symbol || symbol.hasPrefix("_Z") ? demangled : SwiftNameSimplifier.simplify(demangled)
    }

    /// Demangles a Swift or C++ symbol; returns other names unchanged.
    static func demangle(_ name: String) -> String {
        let mangled = name.hasPrefix("$s") || name.hasPrefix("_$s") || name.hasPrefix("$S")
            || name.hasPrefix("_T0") || name.hasPrefix("_Z")
        guard mangled, let text = csampler_demangle(name) else { return name }
        defer { csampler_free(text) }
        return String(cString: text)
    }
}
