import Foundation
import Synchronization
import SystemPackage

/// Writes lines to a descriptor through a buffer: flushed per line for live output,
/// or in 64 KiB blocks when throughput matters (a replay as fast as possible).
package final class LineWriter: Sendable {
    private let descriptor: Int32
    private let flushEachLine: Bool
    private let buffer = Mutex<[UInt8]>([])
    private static let blockSize = 64 * 1024

    /// Creates a writer.
    package init(descriptor: Int32 = STDOUT_FILENO, flushEachLine: Bool) {
        self.descriptor = descriptor
        self.flushEachLine = flushEachLine
    }

    /// Appends one line (a newline is added).
    package func write(_ line: String) {
        buffer.withLock { buffer in
            buffer.append(contentsOf: line.utf8)
            buffer.append(UInt8(ascii: "\n"))
            if flushEachLine || buffer.count >= Self.blockSize {
                Self.drain(&buffer, to: descriptor)
            }
        }
    }

    /// Writes out whatever is buffered.
    package func flush() {
        buffer.withLock { Self.drain(&$0, to: descriptor) }
    }

    private static func drain(_ buffer: inout [UInt8], to descriptor: Int32) {
        // A failure means the reader went away (EPIPE with SIGPIPE ignored): nothing more can be
        // delivered, and the buffer is dropped either way.
        _ = try? FileDescriptor(rawValue: descriptor).writeAll(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
