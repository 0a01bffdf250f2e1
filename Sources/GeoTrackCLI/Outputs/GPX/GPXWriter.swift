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
/// Each point is one `write(2)`: once `append` returns, the point is in the kernel, and a kill -9
/// loses nothing already appended (the file then merely lacks its closing tags, which the replay
/// reader tolerates). A later report of the last point's time is written over that point
/// (``GPXTrackFilter/Action/replaceLast``): the file's end is rewritten, never anything before it. `fsync` runs at most once per ``GPXOptions/syncInterval``, so a power cut
/// loses at most that much. ``close()`` writes the closing tags: after it the file is valid XML.
package final class GPXWriter: Sendable {
    private struct State {
        var descriptor: Int32
        var filter: GPXTrackFilter
        var inSegment = false
        var lastSync: Double
        var unsynced = false
        var points = 0
        var closed = false
        /// Where the file ends, and where the last point written starts (nil until a point is written).
        var end: Int64 = 0
        var lastPointStart: Int64?
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
    ///   - input: the file the track comes from, if any (a replay's log).
    ///   - now: a monotonic clock in seconds, to pace `fsync`.
    package init(path: String, options: GPXOptions, replacing: Bool = false, input: String? = nil, created: Date = Date(),
                 now: @escaping @Sendable () -> Double = MonotonicClock.seconds) throws(CLIError) {
        if let input, OutputFile.same(input, path) {
            throw CLIError(.cannotCreate, "refusing to write the GPX track over \(path), the file being replayed; choose another name")
        }
        // Refused before anything is created, each with advice that works: the open below would
        // say "already exists" of a link or a directory too, and point at --overwrite in vain.
        if let refusal = OutputFile.refusal("GPX", path: path, replacing: replacing) { throw refusal }
        // The file is made beside its name (only a regular file, or nothing, is there). A new
        // track gets the mode open(2) would give it under the umask; a replaced one keeps its own.
        let pending = PendingFile.create(for: path, prefix: ".geotrack-gpx", keepingMode: OutputFile.regularFileMode(path))
        let descriptor = pending?.descriptor ?? -1
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
        self.path = path
        self.now = now
        self.syncInterval = options.syncInterval
        var initial = State(descriptor: descriptor, filter: GPXTrackFilter(options: options), lastSync: now())
        initial.pending = pending
        initial.mayReplace = replacing
        self.state = Mutex(initial)
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        try state.withLock { state throws(CLIError) in
            let header = GPXFormat.header(creator: "geotrack", name: name, created: created)
            do throws(CLIError) {
                try Self.write(header, to: state.descriptor, path: path)
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
                try Self.replaceTail(from: start, oldEnd: state.end, with: line, descriptor: state.descriptor, path: path)
                state.end = start + Int64(line.utf8.count)
            } else {
                var text = ""
                if action == .newSegment {
                    if state.inSegment { text += GPXFormat.segmentEnd }
                    text += GPXFormat.segmentStart
                    state.inSegment = true
                }
                state.lastPointStart = state.end + Int64(text.utf8.count)
                text += line
                do throws(CLIError) {
                    try Self.write(text, to: state.descriptor, path: path)
                } catch {
                    // A disk that filled (or a file-size limit) mid-point: cut the half point off,
                    // so the file ends on a whole one, and close() may yet fit the closing tags.
                    _ = ftruncate(state.descriptor, off_t(state.end))
                    _ = lseek(state.descriptor, off_t(state.end), SEEK_SET)
                    throw error
                }
                state.end += Int64(text.utf8.count)
                state.points += 1
                if let pending = state.pending {
                    // The first point: the recording takes its name (and an old one's place), whole.
                    fsync(state.descriptor)
                    state.pending = nil
                    try Self.place(pending, replacing: state.mayReplace)
                }
            }
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

    /// Writes the closing tags, syncs and closes the file. Safe to call more than once.
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
            try Self.write((state.inSegment ? GPXFormat.segmentEnd : "") + GPXFormat.trailer, to: state.descriptor, path: path)
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

    /// Writes `text` at `start`, over the file's tail, and cuts the file after it: a single
    /// positioned write, so a kill -9 leaves either point whole (and at worst, when the new one is
    /// shorter, a few bytes of the old after it until the cut, which the replay reader skips).
    private static func replaceTail(from start: Int64, oldEnd: Int64, with text: String, descriptor: Int32,
                                    path: String) throws(CLIError) {
        do {
            let file = FileDescriptor(rawValue: descriptor)
            _ = try file.writeAll(toAbsoluteOffset: start, text.utf8)
            let end = start + Int64(text.utf8.count)
            if end < oldEnd {
                try file.resize(to: end)
            }
            // The next append goes at the end: move there, past whatever was rewritten.
            _ = try file.seek(offset: end, from: .start)
        } catch {
            throw CLIError(.ioError, "cannot write GPX file \(path): \((error as? Errno)?.description ?? "\(error)")")
        }
    }

    private static func write(_ text: String, to descriptor: Int32, path: String) throws(CLIError) {
        do {
            _ = try FileDescriptor(rawValue: descriptor).writeAll(text.utf8)
        } catch {
            throw CLIError(.ioError, "cannot write GPX file \(path): \((error as? Errno)?.description ?? "\(error)")")
        }
    }
}
