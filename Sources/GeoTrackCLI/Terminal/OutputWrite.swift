import Synchronization
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// Writes to standard output or a terminal that give up once the process is asked to stop.
///
/// A reader that stops reading (a pipe nobody drains, a terminal paused with Ctrl-S) blocks a
/// plain `write` for as long as it likes; the writer is the main actor, so the signal that
/// asks the run to end could never be handled, and Ctrl-C or SIGTERM went unheard. Here a write
/// to anything but a regular file waits for the descriptor to take bytes in slices of at most
/// `PIPE_BUF` (which a pipe that polls writable takes without blocking), and while it waits it
/// looks at ``isTerminating``: once a terminating signal came, it gives up within a tenth of a
/// second and the run ends as the signal asked. A regular file never blocks for long, so it is
/// written whole.
package enum OutputWrite {
    private static let terminating = Atomic(false)

    /// Whether SIGTERM, SIGINT or SIGHUP has asked the process to end.
    package static var isTerminating: Bool { terminating.load(ordering: .acquiring) }

    /// Marks the process as terminating; called from the signal watch's own thread, which no
    /// blocked write holds up.
    package static func terminate() {
        terminating.store(true, ordering: .releasing)
    }

    /// Whether `descriptor` is a regular file (written whole).
    package static func isRegularFile(_ descriptor: Int32) -> Bool {
        var info = stat()
        return fstat(descriptor, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// Writes all of `bytes` to `descriptor` (see ``OutputWrite``); throws the write's error, or
    /// `EINTR` when it gave up because the process is terminating.
    package static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, regularFile: Bool) throws(Errno) {
        let file = FileDescriptor(rawValue: descriptor)
        if regularFile {
            do {
                _ = try file.writeAll(bytes)
                return
            } catch {
                throw error as? Errno ?? .ioError
            }
        }
        var offset = 0
        while offset < bytes.count {
            var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            let polled = poll(&ready, 1, 100)
            if polled < 0, errno != EINTR { throw Errno(rawValue: errno) }
            if polled <= 0 {
                if isTerminating { throw .interrupted }
                continue
            }
            let slice = UnsafeRawBufferPointer(rebasing: bytes[offset..<min(bytes.count, offset + Int(PIPE_BUF))])
            do {
                offset += try file.write(slice)
            } catch {
                let failure = error as? Errno ?? .ioError
                if failure == .resourceTemporarilyUnavailable { continue }
                throw failure
            }
        }
    }
}
