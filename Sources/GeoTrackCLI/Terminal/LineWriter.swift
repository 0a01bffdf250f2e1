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
    private static let blockSize = 64 * 1024

    /// Creates a writer.
    package init(descriptor: Int32 = STDOUT_FILENO, flushEachLine: Bool) {
        self.descriptor = descriptor
        self.flushEachLine = flushEachLine
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
        // A failure means the reader went away (EPIPE, SIGPIPE being ignored) or the output is
        // lost (ENOSPC: recorded, for exit status 74): nothing more can be delivered, the buffer
        // is dropped, and the run is told to end.
        do {
            _ = try FileDescriptor(rawValue: descriptor).writeAll(buffer)
        } catch {
            if descriptor == STDOUT_FILENO { StandardOutput.record(error as? Errno ?? .ioError) }
            closed.store(true, ordering: .releasing)
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
