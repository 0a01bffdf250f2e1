import FoundationEssentials
import GPSReports
import LocationKit
import Synchronization
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// Records fixes into a GPX 1.1 file as they come, so that the file survives whatever ends the process.
///
/// The file is well-formed GPX at every moment: each point is written together with the closing
/// tags after it, in one positioned write over the previous closing tags. So once `append`
/// returns, the point is in the kernel, and a kill -9 or a crash leaves a file that any GPX reader
/// opens (gpsbabel, a map page watching the recording, xmllint), not one that lacks its end. A
/// later report of the last point's time is written over that point
/// (``GPXTrackFilter/Action/replaceLast``): the file's end is rewritten, never anything before it.
/// `fsync` runs at most once per ``GPXOptions/syncInterval``, so a power cut loses at most that
/// much. ``close()`` syncs the file; its closing tags are already there.
package final class GPXWriter: Sendable {
    private struct State {
        var descriptor: Int32
        var filter: GPXTrackFilter
        var inSegment = false
        var lastSync: Double
        var unsynced = false
        var points = 0
        var closed = false
        /// Where the recorded text ends (the closing tags follow it), and where the last point
        /// written starts (nil until a point is written).
        var end: Int64 = 0
        var lastPointStart: Int64?
        /// The last point's text, to put back if a write over it fails.
        var lastPoint = ""
        /// How many bytes the file holds past `end`: its closing tags, and after a point rewritten
        /// shorter, the spaces that blank out the rest of the longer one.
        var tailLength: Int64 = 0
        /// Whether the file's closing tags are in place (false once a write has failed midway).
        var closedTags = true
        /// The file that becomes the track at the first point (``PendingFile``): until then
        /// nothing is at the path, or with `--overwrite` the old recording stays there, so a run
        /// that records nothing (gpsd down, a file that is no log) neither destroys an old file
        /// nor leaves an empty one that the next run would refuse.
        var pending: PendingFile?
        /// Whether that first point may replace a file at the path (`--overwrite`), or must be
        /// the first there (`link(2)`, which fails rather than replace one that appeared meanwhile).
        var mayReplace = false
    }

    /// The file being written.
    package let path: String
    private let state: Mutex<State>
    private let now: @Sendable () -> Double
    private let syncInterval: Double

    /// Prepares the track for `path` and writes the GPX header, beside it: the file takes its
    /// name at the first point (see `State.pending`), so a run without one leaves nothing new.
    ///
    /// An existing file is never destroyed unasked: it is refused unless `replacing` is set, and
    /// even then a symbolic link is never followed, and the file being read (`input`) is never
    /// written over.
    /// - Parameters:
    ///   - replacing: whether an existing regular file may be replaced (`--overwrite`).
    ///   - appending: whether an existing track that geotrack recorded is continued, in a new
    ///     segment (`--append`); with no file there, the track is created as usual.
    ///   - input: the file the track comes from, if any (a replay's log).
    ///   - now: a monotonic clock in seconds, to pace `fsync`.
    package init(path: String, options: GPXOptions, replacing: Bool = false, appending: Bool = false, input: String? = nil,
                 created: Date = Date(), now: @escaping @Sendable () -> Double = MonotonicClock.seconds) throws(CLIError) {
        if let input, OutputFile.same(input, path) {
            throw CLIError(.cannotCreate, "refusing to write the GPX track over \(path), the file being replayed; choose another name")
        }
        let continued = appending ? try Self.continuing(path) : nil
        var pending: PendingFile?
        let descriptor: Int32
        if let continued {
            descriptor = continued.descriptor
        } else {
            // Refused before anything is created, each with advice that works: the open below would
            // say "already exists" of a link or a directory too, and point at --overwrite in vain.
            if let refusal = OutputFile.refusal("GPX", path: path, replacing: replacing) { throw refusal }
            // The file is made beside its name (only a regular file, or nothing, is there). A new
            // track gets the mode open(2) would give it under the umask; a replaced one keeps its own.
            pending = PendingFile.create(for: path, prefix: ".geotrack-gpx", keepingMode: OutputFile.regularFileMode(path))
            descriptor = pending?.descriptor ?? -1
            guard descriptor >= 0 else {
                let reason = errno
                switch reason {
                case EEXIST:
                    throw CLIError(.cannotCreate, "GPX file \(path) already exists; choose another name, or pass --overwrite to replace it")
                case ELOOP:
                    throw CLIError(.cannotCreate, "GPX file \(path) is a symbolic link; geotrack does not write through links: name the file itself")
                default:
                    throw CLIError(.cannotCreate, "cannot create GPX file \(path): \(String(cString: strerror(reason))). Check the directory exists and is writable.")
                }
            }
        }
        self.path = path
        self.now = now
        self.syncInterval = options.syncInterval
        var initial = State(descriptor: descriptor, filter: GPXTrackFilter(options: options), lastSync: now())
        initial.pending = pending
        initial.mayReplace = replacing
        if let continued {
            // The file holds its header and points already: the first point goes over its end.
            initial.end = continued.end
            initial.tailLength = continued.tailLength
        }
        self.state = Mutex(initial)
        guard continued == nil else { return }
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        try state.withLock { state throws(CLIError) in
            let header = GPXFormat.header(creator: "geotrack", name: name, created: created)
            do throws(CLIError) {
                try Self.write(header, at: 0, to: state.descriptor, path: path)
            } catch {
                // A full disk before the first point: nothing of this run is left behind.
                state.closed = true
                _ = Glibc.close(state.descriptor)
                state.pending?.abandon()
                throw error
            }
            state.end = Int64(header.utf8.count)
        }
    }

    /// The track at `path` opened to be continued (`--append`): where its recorded text ends
    /// (its closing `</trk></gpx>`, which the next point's segment is written over) and how much
    /// follows. Nil when nothing is at `path`. Only a track geotrack recorded and closed is
    /// continued: its header names geotrack, and it ends with the closing tags geotrack writes
    /// (and perhaps the blanks of a shortened last point); anything else is refused, since
    /// writing into it could break a file geotrack does not know.
    private static func continuing(_ path: String) throws(CLIError) -> (descriptor: Int32, end: Int64, tailLength: Int64)? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        if let refusal = OutputFile.refusal("GPX", path: path, replacing: true) { throw refusal }
        let descriptor = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw CLIError(.cannotCreate, "cannot open GPX file \(path) to append to it: \(String(cString: strerror(errno)))")
        }
        guard fstat(descriptor, &info) == 0, let end = recordedEnd(of: FileDescriptor(rawValue: descriptor), size: Int64(info.st_size)) else {
            _ = Glibc.close(descriptor)
            throw CLIError(.cannotCreate, "GPX file \(path) is not a track geotrack recorded and closed, so --append leaves it alone; choose another name")
        }
        return (descriptor, end, Int64(info.st_size) - end)
    }

    /// Where the recorded text of the track in `file` (`size` bytes) ends: before its closing
    /// tags and any blanks after them; nil when its header does not name geotrack or it does not
    /// end with the closing tags geotrack writes.
    private static func recordedEnd(of file: FileDescriptor, size: Int64) -> Int64? {
        guard let head = read(file, at: 0, count: 512), let tail = read(file, at: max(0, size - 512), count: 512) else { return nil }
        let signature = Array(GPXFormat.header(creator: "geotrack", name: "", created: Date(timeIntervalSince1970: 0))
            .utf8.prefix { $0 != UInt8(ascii: ">") }) // `<?xml version="1.0" encoding="UTF-8"?`
        var trimmed = tail[...]
        while trimmed.last == UInt8(ascii: " ") { trimmed = trimmed.dropLast() }
        let trailer = Array(GPXFormat.trailer.utf8)
        guard head.starts(with: signature), head.firstRange(of: Array("creator=\"geotrack\"".utf8)) != nil,
              trimmed.count >= trailer.count, trimmed.suffix(trailer.count).elementsEqual(trailer) else { return nil }
        return size - Int64(tail.count - trimmed.count) - Int64(trailer.count)
    }

    /// Up to `count` bytes of `file` from `offset`, or nil when it cannot be read.
    private static func read(_ file: FileDescriptor, at offset: Int64, count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        guard let got = try? bytes.withUnsafeMutableBytes({ try file.read(fromAbsoluteOffset: offset, into: $0) }) else { return nil }
        return Array(bytes.prefix(got))
    }

    /// How many points are in the file so far.
    package var pointCount: Int { state.withLock { $0.points } }

    /// Adds a fix if the filters keep it; returns whether it was written.
    @discardableResult
    package func append(_ fix: Fix, gnss: GNSSDetail? = nil) throws(CLIError) -> Bool {
        let path = path
        let now = now()
        let syncInterval = syncInterval
        return try state.withLock { state throws(CLIError) -> Bool in
            guard !state.closed else { return false }
            let action = state.filter.action(for: fix)
            guard action != .skip, let line = GPXFormat.point(fix, gnss: gnss) else { return false }
            if action == .replaceLast, let start = state.lastPointStart {
                try Self.rewrite(&state, from: start, with: line, inSegment: true, path: path)
            } else {
                var text = ""
                if action == .newSegment {
                    if state.inSegment { text += GPXFormat.segmentEnd }
                    text += GPXFormat.segmentStart
                }
                let pointStart = state.end + Int64(text.utf8.count)
                text += line
                try Self.rewrite(&state, from: state.end, with: text, inSegment: true, path: path)
                state.lastPointStart = pointStart
                state.points += 1
                if let pending = state.pending {
                    // The first point: the recording takes its name (and an old one's place), whole.
                    fsync(state.descriptor)
                    state.pending = nil
                    try Self.place(pending, replacing: state.mayReplace)
                }
            }
            state.lastPoint = line
            state.unsynced = true
            if now - state.lastSync >= syncInterval {
                fsync(state.descriptor)
                state.lastSync = now
                state.unsynced = false
            }
            return true
        }
    }

    /// Seconds until ``syncIfDue()`` has points to force to disk; `nil` while everything written is synced.
    package var nextSync: Double? {
        let now = now()
        let syncInterval = syncInterval
        return state.withLock { state -> Double? in
            guard !state.closed, state.unsynced else { return nil }
            // The same comparison as syncIfDue's, so that a timer at zero always finds it due.
            let elapsed = now - state.lastSync
            return elapsed >= syncInterval ? 0 : syncInterval - elapsed
        }
    }

    /// Forces written points to disk if the last sync is older than the sync interval (call it on a timer).
    package func syncIfDue() {
        let now = now()
        let syncInterval = syncInterval
        state.withLock { state in
            guard !state.closed, state.unsynced, now - state.lastSync >= syncInterval else { return }
            fsync(state.descriptor)
            state.lastSync = now
            state.unsynced = false
        }
    }

    /// Syncs and closes the file, its closing tags in place (put back first if a failed write took them). Safe to call more than once.
    package func close() throws(CLIError) {
        let path = path
        try state.withLock { state throws(CLIError) in
            guard !state.closed else { return }
            state.closed = true
            defer { _ = Glibc.close(state.descriptor) }
            if let pending = state.pending {
                // No point was recorded: nothing new is left, and a previous file stays as it was.
                pending.abandon()
                return
            }
            if !state.closedTags {
                // The last write failed midway (a full disk): the file was cut back to its last
                // whole point, and its closing tags may fit now.
                try Self.rewrite(&state, from: state.end, with: "", inSegment: state.inSegment, path: path)
            }
            fsync(state.descriptor)
        }
    }

    /// Gives the pending file its name (``PendingFile/place(replacing:)``), saying what went wrong.
    private static func place(_ pending: PendingFile, replacing: Bool) throws(CLIError) {
        let path = pending.path
        switch pending.place(replacing: replacing) {
        case .placed:
            return
        case .appeared:
            throw CLIError(.cannotCreate, "GPX file \(path) appeared during the run; it was left alone (pass --overwrite to replace it)")
        case .failed(let reason) where replacing:
            throw CLIError(.cannotCreate, "cannot replace GPX file \(path): \(String(cString: strerror(reason))); the previous file was left as it was")
        case .failed(let reason):
            throw CLIError(.cannotCreate, "cannot create GPX file \(path): \(String(cString: strerror(reason))). Check the directory is writable.")
        }
    }

    /// The closing tags that follow the recorded text: the segment's, when one is open, then the track's and the document's.
    private static func closingTags(inSegment: Bool) -> String {
        (inSegment ? GPXFormat.segmentEnd : "") + GPXFormat.trailer
    }

    /// Writes `text` at `start` (the end of the recorded text, or the last point's start) with
    /// the closing tags after it (of a segment too, when the file is `inSegment` after `text`), in
    /// a single positioned write over what was there, so that the file is well-formed before and
    /// after it. When the new end is shorter than the old, spaces after the closing tags blank out
    /// the rest (whitespace may follow a document's root element), and only then is the file cut:
    /// a kill -9 between the two still leaves a well-formed file.
    ///
    /// A write that fails midway (a full disk, `ulimit -f`) is undone as far as the file allows,
    /// and its error thrown: the file is cut back to its last whole point (the point being
    /// rewritten is put back; it fitted before) with its closing tags after it, if they fit.
    private static func rewrite(_ state: inout State, from start: Int64, with text: String, inSegment: Bool,
                                path: String) throws(CLIError) {
        let tags = closingTags(inSegment: inSegment)
        let written = Int64(text.utf8.count + tags.utf8.count)
        let blank = max(0, state.end + state.tailLength - (start + written))
        let file = FileDescriptor(rawValue: state.descriptor)
        do {
            _ = try file.writeAll(toAbsoluteOffset: start, (text + tags + String(repeating: " ", count: Int(blank))).utf8)
            if blank > 0 { try file.resize(to: start + written) }
            state.end = start + Int64(text.utf8.count)
            state.tailLength = Int64(tags.utf8.count)
            state.inSegment = inSegment
            state.closedTags = true
        } catch {
            let failure = writeError(error, path: path)
            let restored = start < state.end ? state.lastPoint : ""
            let tags = closingTags(inSegment: state.inSegment)
            _ = try? file.resize(to: start)
            if (try? file.writeAll(toAbsoluteOffset: start, (restored + tags).utf8)) != nil {
                state.end = start + Int64(restored.utf8.count)
                state.tailLength = Int64(tags.utf8.count)
                state.closedTags = true
            } else {
                // Not even what fitted before fits now: the file ends at `start`, a whole point's
                // end or the header's, and close() tries the closing tags again.
                _ = try? file.resize(to: start)
                if start < state.end {
                    state.points -= 1
                    state.lastPointStart = nil
                }
                state.end = start
                state.tailLength = 0
                state.closedTags = false
            }
            throw failure
        }
    }

    private static func write(_ text: String, at offset: Int64, to descriptor: Int32, path: String) throws(CLIError) {
        do {
            _ = try FileDescriptor(rawValue: descriptor).writeAll(toAbsoluteOffset: offset, text.utf8)
        } catch {
            throw writeError(error, path: path)
        }
    }

    /// The one line for a write to the track that failed (exit 74), with what to do where it is
    /// known: the file itself is whole up to its last point, and closed.
    private static func writeError(_ error: any Error, path: String) -> CLIError {
        let reason = error as? Errno
        let advice = switch reason {
        case .noSpace?: "; make room, and record into a new file"
        case .fileTooLarge?: "; the file-size limit (ulimit -f) was reached: raise it, or record into a new file"
        default: ""
        }
        return CLIError(.ioError, "cannot write GPX file \(path): \(reason?.description ?? "\(error)")" + advice)
    }
}
