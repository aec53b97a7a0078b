import Foundation
import MemprofOutput
import MemprofPlatform

/// Standard input, output and error as a command starts and ends.
enum StandardDescriptors {
    /// Gives each of descriptors 0, 1 and 2 that is closed a stand-in, so no file memprof opens
    /// takes its number (a report written where standard output was expected). Standard input
    /// and output become `/dev/null` opened the wrong way round, so reading or writing them
    /// fails as it did ("standard output is closed", exit status 3); standard error becomes
    /// `/dev/null` for writing, as there is nowhere to report its absence.
    static func openClosedOnes() {
        for (fd, flags) in [(STDIN_FILENO, O_WRONLY), (STDOUT_FILENO, O_RDONLY), (STDERR_FILENO, O_WRONLY)] {
            guard fcntl(fd, F_GETFD) == -1, errno == EBADF else { continue }
            let opened = open("/dev/null", flags)
            if opened >= 0, opened != fd {
                dup2(opened, fd)
                close(opened)
            }
        }
    }

    /// Writes out what C's buffered streams hold (`print`, which memprof's commands do not use:
    /// they write through ``StandardStream``), and throws when it cannot be written.
    static func flushStandardOutput() throws {
        if fflush(nil) != 0 {
            throw OutputError(path: "standard output", action: "writing to", errno: errno == 0 ? EIO : errno)
        }
    }
}
