import CDwarf
import Foundation

/// Function names and source lines for code addresses, through elfutils' libdwfl: symbols from
/// `.symtab`/`.dynsym` (and MiniDebugInfo), file:line from the DWARF line table when the binary
/// (or its separate debug file) has one.
final class DwarfSymbolizer {
    struct Location {
        var symbol: String?
        var file: String?
        var line: Int?
    }

    private let session: OpaquePointer?
    private let callbacks: UnsafeMutablePointer<Dwfl_Callbacks>

    /// For the objects of another process, given by path and load bias (they need not be loaded).
    init(objects: [(path: String, bias: UInt)]) {
        callbacks = .allocate(capacity: 1)
        callbacks.initialize(to: Dwfl_Callbacks(
            find_elf: dwfl_build_id_find_elf, find_debuginfo: dwfl_standard_find_debuginfo,
            section_address: dwfl_offline_section_address, debuginfo_path: nil))
        session = dwfl_begin(callbacks)
        guard let session else { return }
        dwfl_report_begin(session)
        for object in objects {
            let name = URL(fileURLWithPath: object.path).lastPathComponent
            _ = dwfl_report_elf(session, name, object.path, -1, GElf_Addr(object.bias), false)
        }
        dwfl_report_end(session, nil, nil)
    }

    /// The compilation units of each module, for binaries without `.debug_aranges` (clang and
    /// swiftc do not write it by default, and libdw 0.188 then finds no line by address).
    private var unitsByModule: [OpaquePointer: (bias: Dwarf_Addr, units: [Dwarf_Die])] = [:]

    private func lineWithoutARanges(_ module: OpaquePointer, _ address: UInt) -> OpaquePointer? {
        if unitsByModule[module] == nil {
            var bias: Dwarf_Addr = 0
            var units: [Dwarf_Die] = []
            if let dwarf = dwfl_module_getdwarf(module, &bias) {
                var offset: Dwarf_Off = 0
                var next: Dwarf_Off = 0
                var headerSize = 0
                while units.count < 100_000,
                      dwarf_nextcu(dwarf, offset, &next, &headerSize, nil, nil, nil) == 0 {
                    var die = Dwarf_Die()
                    if dwarf_offdie(dwarf, offset + Dwarf_Off(headerSize), &die) != nil { units.append(die) }
                    offset = next
                }
            }
            unitsByModule[module] = (bias, units)
        }
        guard let entry = unitsByModule[module], Dwarf_Addr(address) >= entry.bias else { return nil }
        let relative = Dwarf_Addr(address) - entry.bias
        for var unit in entry.units where dwarf_haspc(&unit, relative) == 1 {
            if let line = dwarf_getsrc_die(&unit, relative) { return line }
        }
        return nil
    }

    deinit {
        if let session { dwfl_end(session) }
        callbacks.deinitialize(count: 1)
        callbacks.deallocate()
    }

    /// What covers `address`; nil when no reported object holds it.
    func locate(_ address: UInt) -> Location? {
        guard let session, let module = dwfl_addrmodule(session, Dwarf_Addr(address)) else { return nil }
        var location = Location()
        if let name = dwfl_module_addrname(module, GElf_Addr(address)) {
            location.symbol = String(cString: name)
        }
        var line: Int32 = 0
        if let source = dwfl_module_getsrc(module, Dwarf_Addr(address)) {
            if let file = dwfl_lineinfo(source, nil, &line, nil, nil, nil), line > 0 {
                location.file = String(cString: file)
                location.line = Int(line)
            }
        } else if let source = lineWithoutARanges(module, address),
                  let file = dwarf_linesrc(source, nil, nil), dwarf_lineno(source, &line) == 0, line > 0 {
            location.file = String(cString: file)
            location.line = Int(line)
        }
        return location
    }
}
