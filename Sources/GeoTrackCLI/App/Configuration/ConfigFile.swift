import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// A configuration file in the YAML subset geotrack documents, flattened into dotted keys
/// (`gpsd.port`, `regions.home.latitude`) in file order.
///
/// Our own reader rather than a YAML library: the one swift-configuration offers (Yams) links
/// Foundation, whose start-up every run of geotrack would pay. Whatever the subset does not cover
/// (anchors, tags, block scalars, several documents, nested lists) is refused with its line and
/// the reason, never guessed at. See ``init(bytes:)`` for the subset.
package struct ConfigFile: Sendable, Equatable {
    /// What a key holds.
    package enum Value: Sendable, Equatable {
        /// One value, as written: `2947` is the text "2947", `""` the empty text.
        case scalar(String)
        /// A list, `[a, b]` or `- item` lines; a null item (`-`, `~`) is the empty text.
        case list([String])
        /// `~`, `null`, nothing after the colon, or `{}`: the key is there, without a value.
        /// (Not `none`, which `Optional` lookups would confuse with a missing key.)
        case null
    }

    /// One flattened key and what it holds.
    package struct Entry: Sendable, Equatable {
        /// The dotted path of the key.
        package var key: String
        /// Its value.
        package var value: Value

        /// Creates an entry.
        package init(key: String, value: Value) {
            self.key = key
            self.value = value
        }
    }

    /// Why a file cannot be read: the line at fault (nil for an error of the system) and what is wrong.
    package struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// The line, counted from 1, or nil when the file itself could not be read.
        package var line: Int?
        /// What is wrong, without a full stop.
        package var message: String

        /// Creates a problem.
        package init(line: Int?, message: String) {
            self.line = line
            self.message = message
        }

        /// `line N: message`, on one line.
        package var description: String {
            line.map { "line \($0): \(message)" } ?? message
        }
    }

    /// Every key the file sets, in file order; a mapping's own key appears only when it is empty.
    package private(set) var entries: [Entry]

    /// The keys, in file order.
    package var keys: [String] { entries.map(\.key) }

    /// The value of `key`, or nil when the file does not set it.
    package subscript(key: String) -> Value? {
        entries.first { $0.key == key }?.value
    }

    /// A file that sets nothing.
    package init() {
        entries = []
    }

    /// Parses a file's bytes.
    ///
    /// The subset: block mappings by indentation (spaces only), plain, 'single' and "double"
    /// quoted scalars (escapes `\" \\ \/ \n \t \uXXXX`), flow mappings `{a: 1}` and flow lists
    /// `[1, 2]` of plain values, `- item` lists of plain values, `#` comments, a leading `---`,
    /// a trailing `...`, CRLF line ends and a UTF-8 byte order mark.
    package init(bytes: some Sequence<UInt8>) throws(Problem) {
        var parser = Parser(lines: try Self.contentLines(of: Array(bytes)))
        try parser.parseDocument()
        entries = parser.entries
    }

    /// Parses YAML text.
    package init(text: String) throws(Problem) {
        try self.init(bytes: text.utf8)
    }

    /// Reads and parses the file at `path`; nil when there is no such file.
    ///
    /// A file that someone else could have written is refused, as ssh refuses such a config: it
    /// decides where positions are published. So the file must belong to the user or to root, and
    /// neither it nor its folder may be writable by others (a folder with the sticky bit, as
    /// /tmp, aside; group write only for the user's own group). A named pipe is opened without
    /// waiting for a writer, so one that nobody writes to is an error, not a hang.
    package static func load(path: String) throws(Problem) -> ConfigFile? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if descriptor < 0 {
            let reason = errno
            // ENOTDIR: a component of the path is a file, so this file cannot exist either.
            if reason == ENOENT || reason == ENOTDIR { return nil }
            throw Problem(line: nil, message: String(cString: strerror(reason)))
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw Problem(line: nil, message: String(cString: strerror(errno))) }
        let isPipe = info.st_mode & S_IFMT == S_IFIFO
        if info.st_mode & S_IFMT == S_IFREG {
            if let refusal = Self.writableByOthers(info, what: "it") { throw refusal }
            let parent = FilePath(path).removingLastComponent()
            var folderInfo = stat()
            if stat(parent.isEmpty ? "." : parent.string, &folderInfo) == 0, folderInfo.st_mode & S_ISVTX == 0,
               let refusal = Self.writableByOthers(folderInfo, what: "its folder") {
                throw refusal
            }
        }
        // Read as any file from here: a pipe's writer is waited for (process substitution).
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        // A configuration file is a few kilobytes; the cap stops `--config /dev/zero` from eating memory.
        let limit = 1 << 20
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                let reason = errno
                if reason == EINTR { continue }
                throw Problem(line: nil, message: String(cString: strerror(reason)))
            }
            if count == 0 { break }
            bytes.append(contentsOf: buffer[..<count])
            if bytes.count > limit {
                throw Problem(line: nil, message: "larger than 1 MiB, which no configuration file is")
            }
        }
        if isPipe, bytes.isEmpty {
            throw Problem(line: nil, message: "a named pipe that nothing writes to; name the configuration file itself")
        }
        return try ConfigFile(bytes: bytes)
    }

    /// Why a file or folder (`what`) with `info` could have been changed by someone else: owned
    /// by another user than this one or root, or writable by others (by its group, unless that
    /// group is the user's own). Nil when only the user (or root) could.
    private static func writableByOthers(_ info: stat, what: String) -> Problem? {
        let mode = String(info.st_mode & 0o777, radix: 8)
        if info.st_uid != geteuid() && info.st_uid != 0 {
            return Problem(line: nil, message: "\(what) belongs to another user (\(info.st_uid)), who could change where your position goes; use a file of your own")
        }
        if info.st_mode & S_IWOTH != 0 || (info.st_mode & S_IWGRP != 0 && info.st_gid != getegid()) {
            return Problem(line: nil, message: "others can change \(what) (mode \(mode)), and with it where your position goes; chmod go-w it")
        }
        return nil
    }

    /// The lines that hold keys or values, with the document markers, blank lines and comment
    /// lines gone, and the encoding checked.
    static func contentLines(of bytes: [UInt8]) throws(Problem) -> [Line] {
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        var lines: [Line] = []
        var started = false
        var ended: Int?
        for (offset, raw) in body.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            let number = offset + 1
            let bytes = raw.last == 0x0D ? raw.dropLast() : raw
            // A line holds whole characters: UTF-8 never uses the byte of `\n` inside one.
            guard let string = String(validating: bytes, as: UTF8.self) else {
                throw Problem(line: number, message: "not UTF-8 text")
            }
            let scalars = Array(string.unicodeScalars)
            let indent = scalars.prefix { $0 == " " }.count
            let text = Array(scalars[indent...])
            guard let first = text.first(where: { !Line.isBlank($0) }), first != "#" else { continue }
            if text.first == "\t" {
                throw Problem(line: number, message: "a tab in the indentation; indent with spaces")
            }
            if indent == 0, text.first == "%", lines.isEmpty, !started {
                throw Problem(line: number, message: "directives (%YAML, %TAG) are not supported")
            }
            if indent == 0, let alone = Line.marker("---", in: text) {
                guard !started, lines.isEmpty, ended == nil else {
                    throw Problem(line: number, message: "a second document ('---'); a configuration file holds one")
                }
                guard alone else {
                    throw Problem(line: number, message: "text after '---'; start the keys on the next line")
                }
                started = true
                continue
            }
            if let ended {
                throw Problem(line: number, message: "text after the end of the document ('...' on line \(ended))")
            }
            if indent == 0, let alone = Line.marker("...", in: text) {
                guard alone else { throw Problem(line: number, message: "text after '...'") }
                ended = number
                continue
            }
            lines.append(Line(number: number, indent: indent, text: text))
        }
        return lines
    }
}
