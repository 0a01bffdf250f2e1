import CGPS
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits gpsd's byte stream into lines, in a buffer of fixed size.
///
/// A line longer than ``maximumLineLength`` is skipped up to its newline and counted, so a
/// peer that never sends a newline (or sends a 10 MB line) costs this fixed buffer and
/// nothing more. A line is handed out in place, NUL-terminated and writable (libgps's parser
/// writes into it), and stays valid until the next mutating call.
struct GPSDLineBuffer: ~Copyable {
    /// The longest line kept, in bytes, without its newline.
    let maximumLineLength: Int
    private let storage: UnsafeMutablePointer<UInt8>
    private var start = 0
    private var end = 0
    /// The buffer filled up with no newline: everything up to the next newline is dropped.
    private var discarding = false
    /// How many lines were too long and dropped.
    private(set) var oversizedLines = 0

    /// Creates an empty buffer for lines of at most `maximumLineLength` bytes.
    init(maximumLineLength: Int) {
        precondition(maximumLineLength > 0)
        self.maximumLineLength = maximumLineLength
        // One more byte than the longest line, for the NUL that replaces its newline.
        storage = .allocate(capacity: maximumLineLength + 1)
    }

    deinit {
        storage.deallocate()
    }

    /// Reads what the socket has into the free space. Returns the byte count, 0 at the end of
    /// the stream, or -1 with `errno` set (`EAGAIN` when nothing is there yet).
    mutating func receive(from descriptor: Int32) -> Int {
        makeRoom()
        let count = geotrackReceive(descriptor, storage + end, maximumLineLength + 1 - end)
        if count > 0 { end += count }
        return count
    }

    /// Appends `bytes` as if they had been received (for tests and the fuzzer); returns how
    /// many fitted.
    mutating func append(_ bytes: UnsafeRawBufferPointer) -> Int {
        makeRoom()
        let count = min(bytes.count, maximumLineLength + 1 - end)
        if count > 0, let base = bytes.baseAddress {
            (storage + end).update(from: base.assumingMemoryBound(to: UInt8.self), count: count)
            end += count
        }
        return count
    }

    /// The next complete line without its newline (or carriage return), or `nil` until more
    /// bytes arrive.
    mutating func nextLine() -> UnsafeMutableBufferPointer<UInt8>? {
        while start < end {
            guard let found = memchr(storage + start, 0x0A, end - start) else { return nil }
            let newline = found.assumingMemoryBound(to: UInt8.self) - storage
            let lineStart = start
            start = newline + 1
            if discarding {
                // The tail of a line that was too long.
                discarding = false
                oversizedLines += 1
                continue
            }
            var lineEnd = newline
            if lineEnd > lineStart, storage[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            storage[lineEnd] = 0
            return UnsafeMutableBufferPointer(start: storage + lineStart, count: lineEnd - lineStart)
        }
        return nil
    }

    /// Makes free space after the incomplete line, if any.
    private mutating func makeRoom() {
        compact()
        if end == maximumLineLength + 1 {
            // Full, and no newline in it (``nextLine()`` would have found one): drop the lot
            // and skip the rest of this line as it arrives.
            discarding = true
            start = 0
            end = 0
        }
    }

    /// Moves an incomplete line to the front, so the free space is contiguous.
    private mutating func compact() {
        guard start > 0 else { return }
        let remaining = end - start
        if remaining > 0 { memmove(storage, storage + start, remaining) }
        start = 0
        end = remaining
    }
}

/// recv(2) through the shim, which retries on EINTR.
private func geotrackReceive(_ descriptor: Int32, _ buffer: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int {
    geotrack_receive(descriptor, buffer, count)
}
