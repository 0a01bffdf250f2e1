import FoundationEssentials
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// Which file an output's name stands for, so that two outputs, or an output and the input,
/// are never given one file.
enum OutputFile {
    /// Whether `first` and `second` name one file: for two files that exist, the same device and
    /// inode (a hard link, a second path, a link to it); otherwise the same path once each one's
    /// directory is resolved (`a.gpx` and `./x/../a.gpx`, before either is created). `-`
    /// (standard input) names no file.
    static func same(_ first: String, _ second: String) -> Bool {
        guard first != "-", second != "-" else { return false }
        var a = stat(), b = stat()
        let firstExists = stat(first, &a) == 0, secondExists = stat(second, &b) == 0
        if firstExists && secondExists { return a.st_dev == b.st_dev && a.st_ino == b.st_ino }
        if firstExists != secondExists { return false }
        guard let resolvedFirst = resolved(first), let resolvedSecond = resolved(second) else { return first == second }
        return resolvedFirst == resolvedSecond
    }

    /// Why `name`, given to `option` (`--gpx`, `--svg`), names no file, said for the command line:
    /// an empty one (an unset shell variable: --gpx "$TRACK"), which would otherwise be a file that
    /// "cannot be created: No such file or directory", or "-", standard output to gpsbabel and
    /// most tools (gpxlogger writes there by default), never a file a user means to call "-".
    /// The outputs go to files only: the track replaces a point in place when a later report of
    /// its time comes, which a pipe cannot take. Nil for a name, or no option.
    static func nameProblem(_ option: String, _ name: String?) -> String? {
        switch name {
        case "": "\(option) needs a file name (got an empty one)."
        case "-": "\(option) writes to a file, not to standard output; name one (./- for a file called '-')."
        default: nil
        }
    }

    /// Why an output file `path` (`kind`: "GPX", "SVG") cannot be used as it stands, checked before
    /// the run starts: a symbolic link (never followed, `--overwrite` or not), a directory (no
    /// run can replace one), anything else that is no regular file (a device, a FIFO, a socket:
    /// the file is made beside its name and renamed over it, which would replace /dev/null
    /// itself, and opening a FIFO would wait for a reader, deaf to Ctrl-C), or an existing file
    /// without `replacing`. Each says what would work, so the advice never points at an option
    /// that fails in turn. Nil when nothing is there, or when `replacing` and it is a regular file.
    static func refusal(_ kind: String, path: String, replacing: Bool) -> CLIError? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFLNK:
            return CLIError(.cannotCreate, "\(kind) file \(path) is a symbolic link; geotrack does not write through links: name the file itself")
        case S_IFDIR:
            var folder = Substring(path)
            while folder.count > 1, folder.hasSuffix("/") { folder = folder.dropLast() }
            let example = (folder == "/" ? "" : folder) + "/track." + kind.lowercased()
            return CLIError(.cannotCreate, "\(kind) file \(path) is a directory; name a file, such as \(example)")
        case S_IFREG:
            return replacing ? nil
                : CLIError(.cannotCreate, "\(kind) file \(path) already exists; choose another name, or pass --overwrite to replace it")
        default:
            return CLIError(.cannotCreate, "\(kind) file \(path) is \(Self.kindOfFile(info.st_mode)), not a regular file; name a regular file")
        }
    }

    /// What a file that is neither a regular file, a directory nor a link is, for a message.
    private static func kindOfFile(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFIFO: "a named pipe (FIFO)"
        case S_IFSOCK: "a socket"
        default: "a special file"
        }
    }

    /// The permission bits of the regular file at `path`, if one is there (not through a link).
    static func regularFileMode(_ path: String) -> mode_t? {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return info.st_mode & 0o7777
    }

    /// `path` with its directory resolved (links, `.` and `..`), and its last component as given;
    /// nil when the directory does not exist.
    private static func resolved(_ path: String) -> String? {
        let file = FilePath(path)
        guard let name = file.lastComponent else { return nil }
        let directory = file.removingLastComponent().string
        guard let real = realpath(directory.isEmpty ? "." : directory, nil) else { return nil }
        defer { free(real) }
        return String(cString: real) + "/" + name.string
    }
}
