import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The one way LocationKit saves state (the authorization decision, a monitor's conditions):
/// a temporary file beside the target, written, made private (0600) and synced, then renamed
/// over it, and the directory synced. A reader sees the old file or the new one, never half;
/// a symbolic link at `path` is replaced, never followed.
enum StateFile {
    /// Writes `text` to `path`; returns why it could not, or `nil`.
    static func writeAtomically(_ text: String, to path: String, directory: String) -> String? {
        let name = path.lastPathComponent
        guard let (fd, temporary) = TemporaryFile.create(in: directory, prefix: ".\(name)") else { return reason() }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            written += count
        }
        guard written == bytes.count, fchmod(fd, 0o600) == 0, fsync(fd) == 0 else {
            let failure = reason()
            close(fd)
            unlink(temporary)
            return failure
        }
        close(fd)
        guard rename(temporary, path) == 0 else {
            let failure = reason()
            unlink(temporary)
            return failure
        }
        // Make the rename itself durable.
        let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryFD >= 0 {
            fsync(directoryFD)
            close(directoryFD)
        }
        return nil
    }

    private static func reason() -> String {
        String(cString: strerror(errno))
    }
}

/// Whether a folder may hold private state (the authorization decision, the outbox): it must
/// be the user's own, and no one else may write to it. Anyone who can write there can replace
/// a decision with a grant, or swap the outbox for a link; such a folder is refused, not used
/// (fail closed).
public enum StateDirectory {
    /// Why `path` may not hold private state, in words that say what to do; nil when it may, or
    /// when it does not exist yet (it is then made 0700). The folder itself is checked as it
    /// resolves: a state folder that is a link the user made is theirs to make.
    public static func problem(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            return errno == ENOENT ? nil : "it cannot be examined (\(String(cString: strerror(errno))))"
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { return "\(path) is not a folder; move it away" }
        let user = geteuid()
        guard info.st_uid == user else {
            return "the folder \(path) belongs to user \(info.st_uid), not to you (\(user)); use a folder of your own (XDG_STATE_HOME)"
        }
        guard info.st_mode & (S_IWGRP | S_IWOTH) == 0 else {
            let mode = String(info.st_mode & 0o7777, radix: 8)
            return "others may write to the folder \(path) (mode \(mode)); run `chmod 700 \(path)`"
        }
        return nil
    }
}
