import CGPS
import GPSReports
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Lets a cancelled task wake the reader thread wherever it waits on gpsd: connecting,
/// sending its request or waiting for a line.
///
/// It owns a pipe whose read end every wait of the reader also polls; ``interrupt()`` makes
/// that end readable for good. A pipe, rather than shutting the socket down, also reaches a
/// connect that has no socket to shut down yet. The pipe is closed when the last reference
/// goes, after the reader thread has stopped using it.
final class GPSDInterrupter: Sendable {
    private let interrupted = Atomic(false)
    /// The read end, for ``geotrack_wait``.
    let wakeDescriptor: Int32
    private let writeDescriptor: Int32

    /// Creates the pipe; fails only when the process is out of descriptors.
    init() throws(SourceError) {
        var fds: [Int32] = [-1, -1]
        guard geotrack_wake_pipe(&fds) == 0 else {
            throw SourceError(.io, message:
                "cannot watch gpsd: \(String(cString: strerror(errno))). Close some files, or raise the limit (ulimit -n).")
        }
        wakeDescriptor = fds[0]
        writeDescriptor = fds[1]
    }

    deinit {
        close(wakeDescriptor)
        close(writeDescriptor)
    }

    /// Whether ``interrupt()`` was called.
    var isInterrupted: Bool { interrupted.load(ordering: .acquiring) }

    /// Stops the reader: every wait it is in, or enters later, returns at once.
    func interrupt() {
        guard !interrupted.exchange(true, ordering: .acquiringAndReleasing) else { return }
        geotrack_wake(writeDescriptor)
    }
}
