import Foundation
import MemprofInput
import MemprofPlatform
import Testing

@Suite struct InputFileTests {
    @Test func onlyRegularFilesAreRead() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("memprof-input-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("w.yaml").path, fifo = dir.appendingPathComponent("fifo").path
        try "memprof: 1\n".write(toFile: file, atomically: false, encoding: .utf8)
        #expect(mkfifo(fifo, 0o644) == 0)
        #expect(InputFile.read(file, maxBytes: 100) == .success(Array("memprof: 1\n".utf8)))
        #expect(InputFile.read(file, maxBytes: 4) == .failure(.tooLarge(maxBytes: 4)))
        #expect(InputFile.read(fifo, maxBytes: 100) == .failure(.notRegular("a FIFO")))
        #expect(InputFile.read("/dev/zero", maxBytes: 100) == .failure(.notRegular("a character device")))
        #expect(InputFile.read(dir.path, maxBytes: 100) == .failure(.folder))
        #expect(InputFile.read(dir.appendingPathComponent("none").path, maxBytes: 100) == .failure(.missing))
        #expect(InputFile.Refusal.notRegular("a FIFO").message == "is a FIFO, not a regular file; memprof reads its input from files")
    }
}
