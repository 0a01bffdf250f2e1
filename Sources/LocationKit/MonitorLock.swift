import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Holds a monitor's name for one ``Monitor``: a write lock over the whole of `NAME.lock` beside
/// the monitor's file, taken with `fcntl(F_SETLK)`, and this process's own list of the lock files
/// it holds.
///
/// The kernel drops a process's record lock when the process ends, however it ends (a crash,
/// `kill -9`); a lock file alone would outlive a crash and lock the name for good. The file itself
/// stays (it holds only the holder's process id): removing it would let a second process lock a
/// new file while a third still holds the old one.
///
/// Why a record lock and not `flock`: a `flock` belongs to the open file description, which a
/// child shares from `fork` until its `exec` closes the descriptor, so a monitor closed while the
/// program (or a test harness) was starting a process stayed locked for that moment, and opening
/// it again failed. A record lock belongs to the process and is never inherited. Its cost: it does
/// not conflict within the process, so the process's own monitors are told apart by ``held``; and
/// closing any descriptor of the file drops it, so nothing in the process may open a lock file it
/// holds: every open goes through here, after a look at ``held``.
final class MonitorLock {
    /// Why the name could not be had.
    enum Failure: Error {
        /// Another monitor holds it; the process that holds it, when the kernel says.
        case held(processID: Int32?)
        /// The lock file could not be opened or locked: strerror's words.
        case failed(String)
    }

    /// A file, whatever path names it.
    struct FileID: Hashable {
        let device: UInt64
        let inode: UInt64

        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }

    /// The lock files this process holds, each with any other descriptor of it opened meanwhile,
    /// which must stay open while it is held (closing it would drop the lock).
    private static let held = Mutex<[FileID: [Int32]]>([:])

    private var descriptor: Int32
    private let file: FileID

    /// Locks `path`, creating it (0600) when missing; a symbolic link there is refused, never followed.
    init(path: String) throws(Failure) {
        let outcome: Result<(Int32, FileID), Failure> = Self.held.withLock { held in
            var info = stat()
            // Before opening: opening and closing a file this process holds would drop its lock.
            if lstat(path, &info) == 0, held[FileID(info)] != nil { return .failure(.held(processID: getpid())) }
            // Close-on-exec: a program the app starts gets no descriptor of it.
            let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
            guard descriptor >= 0 else { return .failure(.failed(Self.reason())) }
            guard fstat(descriptor, &info) == 0 else {
                let failure = Self.reason()
                close(descriptor)
                return .failure(.failed(failure))
            }
            let file = FileID(info)
            if held[file] != nil {
                // The path was replaced by the held file between the look and the open: keep the
                // descriptor open until that lock is released.
                held[file, default: []].append(descriptor)
                return .failure(.held(processID: getpid()))
            }
            var lock = Self.wholeFile()
            guard fcntl(descriptor, F_SETLK, &lock) == 0 else {
                let code = errno
                // Not held by this process (see above), so closing drops nothing of ours.
                defer { close(descriptor) }
                guard code == EACCES || code == EAGAIN else { return .failure(.failed(Self.reason(code))) }
                var probe = Self.wholeFile()
                let holder = fcntl(descriptor, F_GETLK, &probe) == 0 && probe.l_type != Int16(F_UNLCK) && probe.l_pid > 0 ? probe.l_pid : nil
                return .failure(.held(processID: holder))
            }
            held[file] = []
            return .success((descriptor, file))
        }
        switch outcome {
        case .failure(let failure):
            throw failure
        case .success(let (descriptor, file)):
            self.descriptor = descriptor
            self.file = file
        }
        // Who holds it, for a person reading the file; the error another process reports asks
        // the kernel instead. A number left by a crashed holder is overwritten here.
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
        Self.held.withLock { held in
            guard descriptor >= 0 else { return }
            // Closing a descriptor of the file drops the process's lock on it.
            close(descriptor)
            for extra in held.removeValue(forKey: file) ?? [] { close(extra) }
            descriptor = -1
        }
    }

    /// A write lock over the whole file, however long it grows.
    private static func wholeFile() -> flock {
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 0
        lock.l_len = 0
        return lock
    }

    private static func reason(_ code: Int32 = errno) -> String {
        String(cString: strerror(code))
    }
}
