#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GPSReports

/// A file, pipe, tty or stdin read in fixed-size chunks into one reusable buffer.
///
/// Memory stays bounded whatever the input's size: the buffer holds one chunk plus the
/// unfinished tail of the previous one, which the decoders keep short.
///
/// The bulk JSON path (the TPVJSONBulk module) reads a file as this does: its sizes and its
/// read error are `package`.
package final class ByteInput {
    /// Bytes asked for per `read(2)`. `replay --json` hands its fixes to the JSON thread once
    /// per chunk: at 64 KiB the hand-overs' futex calls and thread wake-ups cost 5 to 6 % of its
    /// time.
    package static let chunkSize = 256 * 1024
    /// Room kept for an unfinished line carried over from the previous chunk.
    package static let carryCapacity = 4 * 1024

    private let fd: Int32
    private let ownsDescriptor: Bool
    private let path: String
    private let storage: UnsafeMutablePointer<UInt8>
    private let capacity = ByteInput.chunkSize + ByteInput.carryCapacity
    /// First unconsumed byte.
    private(set) var start = 0
    /// One past the last byte read.
    private(set) var end = 0
    /// Whether `read(2)` reported the end of the input.
    private(set) var atEnd = false

    /// Opens `path` for reading; "-" is stdin.
    init(path: String) throws(SourceError) {
        self.path = path
        if path == "-" {
            fd = 0
            ownsDescriptor = false
        } else {
            let opened = open(path, O_RDONLY | O_CLOEXEC)
            guard opened >= 0 else { throw Self.openError(path: path, errno: errno) }
            var info = stat()
            if fstat(opened, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
                close(opened)
                throw Self.directoryError(path: path)
            }
            fd = opened
            ownsDescriptor = true
        }
        storage = .allocate(capacity: capacity)
    }

    /// Checks that `path` can be opened for reading as ``init(path:)`` opens it, with the same
    /// errors, and closes it again: a caller that starts other work first (a server, a status
    /// line) finds a missing file before it.
    ///
    /// A named pipe is not opened, only its permission checked: opening its read end lets a
    /// waiting writer (`cat log > pipe`) write its whole log into the pipe and go, and closing
    /// that end again would throw the log away and leave the real open waiting for a writer
    /// that never comes.
    package static func check(path: String) throws(SourceError) {
        guard path != "-" else { return }
        var named = stat()
        if stat(path, &named) == 0, (named.st_mode & S_IFMT) == S_IFIFO {
            guard faccessat(AT_FDCWD, path, R_OK, AT_EACCESS) == 0 else { throw openError(path: path, errno: errno) }
            return
        }
        let opened = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard opened >= 0 else { throw openError(path: path, errno: errno) }
        defer { close(opened) }
        var info = stat()
        if fstat(opened, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            throw directoryError(path: path)
        }
    }

    deinit {
        storage.deallocate()
        if ownsDescriptor { close(fd) }
    }

    /// The unconsumed bytes.
    var available: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: storage + start, count: end - start)
    }

    /// Marks `count` bytes at the front of ``available`` as consumed.
    func consume(_ count: Int) {
        start = min(end, start + count)
    }

    /// Moves the unconsumed tail to the front and reads one more chunk after it.
    ///
    /// Returns `false` at the end of the input. The caller must keep the unconsumed tail under
    /// ``carryCapacity``; a longer tail is dropped rather than grown.
    func refill() throws(SourceError) -> Bool {
        if atEnd { return false }
        var tail = end - start
        if tail > Self.carryCapacity {
            // The decoders never leave this much; dropping keeps memory bounded regardless.
            start = end - Self.carryCapacity
            tail = Self.carryCapacity
        }
        if tail > 0 && start > 0 { memmove(storage, storage + start, tail) }
        start = 0
        end = tail
        while true {
            let count = read(fd, storage + end, capacity - end)
            if count > 0 {
                end += count
                return true
            }
            if count == 0 {
                atEnd = true
                return false
            }
            if errno == EINTR { continue }
            throw Self.readError(path: path, errno: errno)
        }
    }

    /// A `read(2)` or `pread(2)` of `path` that failed with `code`.
    package static func readError(path: String, errno code: Int32) -> SourceError {
        SourceError(.io, message: "cannot read \(path): \(String(cString: strerror(code))). Check the file or device.")
    }

    private static func directoryError(path: String) -> SourceError {
        SourceError(.unreadableFile, message: "cannot replay \(path): it is a directory. Give an NMEA log or a GPX track file.")
    }

    private static func openError(path: String, errno code: Int32) -> SourceError {
        switch code {
        case ENOENT:
            SourceError(.unreadableFile, message: "cannot replay \(path): no such file. Check the path.")
        case EACCES, EPERM:
            SourceError(.unreadableFile, message: "cannot replay \(path): permission denied. Check the file's permissions.")
        default:
            SourceError(.unreadableFile, message: "cannot replay \(path): \(String(cString: strerror(code))).")
        }
    }
}
