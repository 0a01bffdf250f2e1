import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// A file an output writes before it takes its name (``place(replacing:)``): the GPX track until
/// its first point, the SVG picture until it is whole. Until then nothing new is at the path,
/// and with `--overwrite` the old file stays there.
///
/// Where the file system allows it (ext4, XFS, Btrfs, tmpfs), the file has no name at all until
/// it is placed (`O_TMPFILE`), so a run that ends first, even by `kill -9` or a power cut, leaves
/// nothing behind. Elsewhere (FAT on an SD card or a USB stick, NFS) it is a hidden file beside
/// the path, removed when the run abandons it, and placed by `rename(2)` where there are no
/// hard links.
struct PendingFile: Sendable {
    /// How ``place(replacing:)`` went.
    enum Placement: Equatable {
        /// The file has its name.
        case placed
        /// Without `replacing`, a file appeared at the path during the run; it was left alone.
        case appeared
        /// The system refused, with this `errno`.
        case failed(Int32)
    }

    /// The open file, for writing.
    let descriptor: Int32
    /// The name it takes.
    let path: String
    /// Its hidden name beside `path`, when the file system gave it no unnamed one.
    let hiddenName: String?

    /// A new file for `path`, in its directory: created through the umask with mode 0644, as
    /// open(2) would create `path` itself, or with `keepingMode`, the permissions of the file it
    /// will replace (a private 0600 recording stays private). `prefix` names the hidden file where
    /// one is needed (`.geotrack-gpx`). Nil when it cannot be created, with `errno` set.
    static func create(for path: String, prefix: String, keepingMode: mode_t?) -> PendingFile? {
        if let unnamed = openTemporary {
            let descriptor = open(folder(of: path), unnamed | O_WRONLY | O_CLOEXEC, keepingMode ?? 0o644)
            if descriptor >= 0 {
                if let keepingMode { fchmod(descriptor, keepingMode) }
                return PendingFile(descriptor: descriptor, path: path, hiddenName: nil)
            }
            // EOPNOTSUPP (or EISDIR, EINVAL on older kernels): this file system makes no unnamed
            // files. Anything else (a missing or read-only directory) fails the named one too.
        }
        for _ in 0..<64 {
            let name = hiddenName(beside: path, prefix: prefix)
            let descriptor = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, keepingMode ?? 0o644)
            if descriptor >= 0 {
                if let keepingMode { fchmod(descriptor, keepingMode) }
                return PendingFile(descriptor: descriptor, path: path, hiddenName: name)
            }
            guard errno == EEXIST else { return nil }
        }
        return nil
    }

    /// Gives the file its name: over the file at the path with `replacing` (`rename(2)`, atomic,
    /// never through a link), else only while nothing is there (`link(2)`, which fails rather than
    /// replace a file that appeared during the run). The descriptor stays open for writing.
    func place(replacing: Bool) -> Placement {
        guard let hiddenName else {
            let source = "/proc/self/fd/\(descriptor)"
            if !replacing {
                if linkat(AT_FDCWD, source, AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0 { return .placed }
                return errno == EEXIST ? .appeared : .failed(errno)
            }
            // An unnamed file cannot be renamed: it gets a hidden name for the moment of the swap.
            let hidden = Self.hiddenName(beside: path, prefix: ".geotrack-place")
            guard linkat(AT_FDCWD, source, AT_FDCWD, hidden, AT_SYMLINK_FOLLOW) == 0 else { return .failed(errno) }
            guard rename(hidden, path) == 0 else {
                let reason = errno
                unlink(hidden)
                return .failed(reason)
            }
            return .placed
        }
        if replacing {
            guard rename(hiddenName, path) == 0 else {
                let reason = errno
                unlink(hiddenName)
                return .failed(reason)
            }
            return .placed
        }
        defer { unlink(hiddenName) }
        if link(hiddenName, path) == 0 { return .placed }
        if errno == EEXIST { return .appeared }
        // A file system without hard links (FAT): rename, once nothing is at the path, is the
        // nearest to link's refusal to replace.
        var existing = stat()
        if lstat(path, &existing) == 0 { return .appeared }
        return rename(hiddenName, path) == 0 ? .placed : .failed(errno)
    }

    /// The folder `path` is in ("." for a bare name).
    private static func folder(of path: String) -> String {
        let directory = FilePath(path).removingLastComponent().string
        return directory.isEmpty ? "." : directory
    }

    /// A random hidden name beside `path`: `prefix`, a dot and 64 random bits.
    private static func hiddenName(beside path: String, prefix: String) -> String {
        folder(of: path) + "/" + prefix + "." + String(UInt64.random(in: 0...UInt64.max), radix: 36)
    }

    /// Gives the file up before it is placed: a hidden one is removed, an unnamed one goes with
    /// its descriptor. Does not close the descriptor.
    func abandon() {
        if let hiddenName { unlink(hiddenName) }
    }
}

#if os(Linux) && (arch(x86_64) || arch(arm64))
/// `O_TMPFILE`, Linux's `__O_TMPFILE | O_DIRECTORY` (0o20000000 | 0o200000, the same on x86-64
/// and AArch64, part of the kernel's stable interface), which Glibc's Swift overlay leaves out
/// because it needs `_GNU_SOURCE`.
private let openTemporary: Int32? = 0o20_200_000
#else
/// Elsewhere the file is a hidden one beside the path.
private let openTemporary: Int32? = nil
#endif
