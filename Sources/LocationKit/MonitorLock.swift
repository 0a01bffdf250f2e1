#if canImport(Glibc)
import Glibc
#endif

/// Holds a monitor's name for one ``Monitor``: an exclusive `flock(2)` on `NAME.lock` beside the
/// monitor's file.
///
/// A `flock` belongs to the open file description, so a second open of the same file conflicts
/// whether it is made in this process or in another; and the kernel drops it when the
/// descriptor is closed: by ``release()``, by `deinit`, or by the end of the process, however it
/// ends (a crash, `kill -9`). A lock file alone would outlive a crash and lock the name for good.
/// The file itself stays (empty but for the holder's process id): removing it would let a
/// second process lock a new file while a third still holds the old one.
final class MonitorLock {
    /// Why the name could not be had.
    enum Failure: Error {
        /// Another open of the lock file holds it; the process id it wrote, when it could be read.
        case held(processID: Int32?)
        /// The lock file could not be opened or locked: strerror's words.
        case failed(String)
    }

    private var descriptor: Int32

    /// Locks `path`, creating it (0600) when missing; a symbolic link there is refused, never followed.
    init(path: String) throws(Failure) {
        // Close-on-exec: a program the app starts must not inherit the lock and hold the name
        // after the app is gone.
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw .failed(Self.reason()) }
        var result: Int32
        repeat { result = flock(descriptor, LOCK_EX | LOCK_NB) } while result != 0 && errno == EINTR
        guard result == 0 else {
            let failure: Failure = errno == EWOULDBLOCK ? .held(processID: Self.holder(descriptor)) : .failed(Self.reason())
            close(descriptor)
            throw failure
        }
        self.descriptor = descriptor
        // Who holds it, for the error another open reports. Only said, never trusted: the lock
        // decides, and a stale number left by a crashed process is overwritten here.
        let text = Array("\(getpid())\n".utf8)
        if ftruncate(descriptor, 0) == 0 {
            _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        }
    }

    deinit {
        release()
    }

    /// Gives the name up; later calls do nothing.
    func release() {
        guard descriptor >= 0 else { return }
        // Closing the only descriptor of this open file description drops its flock.
        close(descriptor)
        descriptor = -1
    }

    /// The process id the holder wrote in the file, if it has written one yet.
    private static func holder(_ descriptor: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n").first
        return text.flatMap { Int32($0) }.flatMap { $0 > 0 ? $0 : nil }
    }

    private static func reason() -> String {
        String(cString: strerror(errno))
    }
}
