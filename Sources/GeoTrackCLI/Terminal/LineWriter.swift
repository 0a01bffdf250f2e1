import FoundationEssentials
import Synchronization
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// Writes lines to a descriptor through a buffer: flushed per line for live output,
/// or in 64 KiB blocks when throughput matters (a replay as fast as possible).
package final class LineWriter: Sendable {
    private let descriptor: Int32
    private let flushEachLine: Bool
    private let buffer = Mutex<[UInt8]>([])
    private let closed = Atomic(false)
    /// Whether the descriptor is a regular file, written whole (``OutputWrite``).
    private let regularFile: Bool
    private static let blockSize = 64 * 1024

    /// Creates a writer.
    package init(descriptor: Int32 = STDOUT_FILENO, flushEachLine: Bool) {
        self.descriptor = descriptor
        self.flushEachLine = flushEachLine
        self.regularFile = OutputWrite.isRegularFile(descriptor)
    }

    /// Whether the reader went away (`… | head -1`): nothing more can be delivered.
    package var isClosed: Bool { closed.load(ordering: .acquiring) }

    /// Appends one line (a newline is added).
    package func write(_ line: String) {
        buffer.withLock { buffer in
            buffer.append(contentsOf: line.utf8)
            buffer.append(UInt8(ascii: "\n"))
            if flushEachLine || buffer.count >= Self.blockSize {
                drain(&buffer)
            }
        }
    }

    /// Writes out whatever is buffered.
    package func flush() {
        buffer.withLock { drain(&$0) }
    }

    private func drain(_ buffer: inout [UInt8]) {
        // A failure means the reader went away (EPIPE, SIGPIPE being ignored), the output is
        // lost (ENOSPC: recorded, for exit status 74), or a reader that takes nothing held up a
        // run that a signal asked to end (OutputWrite): nothing more can be delivered, the
        // buffer is dropped, and the run is told to end.
        let result = buffer.withUnsafeBytes { bytes in
            Result { () throws(Errno) in try OutputWrite.writeAll(bytes, to: descriptor, regularFile: regularFile) }
        }
        if case .failure(let error) = result {
            if descriptor == STDOUT_FILENO, error != .interrupted { StandardOutput.record(error) }
            closed.store(true, ordering: .releasing)
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
