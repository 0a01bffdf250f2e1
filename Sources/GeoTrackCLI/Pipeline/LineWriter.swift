import Foundation
import Synchronization

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
        var offset = 0
        buffer.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            while offset < bytes.count {
                let written = Foundation.write(descriptor, base + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    // The reader went away (EPIPE with SIGPIPE ignored): nothing more can be delivered.
                    offset = bytes.count
                    return
                }
                offset += written
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
