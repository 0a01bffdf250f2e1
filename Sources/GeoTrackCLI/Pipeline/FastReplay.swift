import Foundation
import GPSReports
import NMEA
import Synchronization

/// `replay FILE` as fast as possible: the synchronous reader on a thread of its own, no pacing.
///
/// `replay FILE --json` alone keeps the NMEA layer's allocation-free path (TPV bytes straight into
/// a 64 KiB buffer); anything else (`--gpx`, `--count`, the status line) goes through the same
/// reducer and outputs as a live run. A terminating signal stops the loop between reports, and the
/// GPX file is closed as usual.
package enum FastReplay {
    /// Replays `path` to the outputs.
    package static func run(path: String, options: OutputOptions, settings: Settings) async throws(CLIError) {
        let stop = StopFlag()
        let lifecycle = await ProcessLifecycle(signals: [SIGTERM, SIGINT, SIGHUP])
        let states = await MainActor.run { lifecycle.rx.state }
        let watcher = Task {
            for await state in states {
                if case .terminating = state { stop.set() }
            }
        }
        defer { watcher.cancel() }
        let plainJSON = options.json && options.gpxPath == nil && options.stopAfter == nil
        let outputs: TrackerOutput? = plainJSON ? nil : try TrackerOutputs.make(options: options, settings: settings, live: false)
        let progress = outputs != nil && options.gpxPath != nil && path != "-" && Terminal.isTerminal(STDERR_FILENO)
            ? ProgressBar(total: try countFixes(path)) : nil
        let result: Result<Void, CLIError> = await withCheckedContinuation { continuation in
            let thread = Thread {
                do throws(CLIError) {
                    if let outputs {
                        try replay(path: path, outputs: outputs, progress: progress, stop: stop)
                    } else {
                        try replayJSON(path: path, stop: stop)
                    }
                    continuation.resume(returning: .success(()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
            thread.name = "geotrack replay"
            thread.start()
        }
        progress?.finish()
        await lifecycle.cancel()
        try result.get()
    }

    /// The fast path for `replay FILE --json`: the NMEA layer's two-thread TPV pipeline, unchanged.
    /// A terminating signal is honoured at the next output block.
    static func replayJSON(path: String, stop: StopFlag) throws(CLIError) {
        let reader: ReplayReader
        do {
            reader = try ReplayReader(path: path)
        } catch {
            throw CLIError(error)
        }
        let result: (fixes: Int, written: Bool)
        do {
            result = try TPVJSONPipeline.run(reader) { bytes in
                !stop.isSet && writeAll(bytes)
            }
        } catch {
            throw CLIError(.ioError, error.message)
        }
        if !result.written && !stop.isSet {
            throw CLIError(.ioError, "cannot write output: \(String(cString: strerror(errno)))")
        }
    }

    /// Everything else: reports through the reducer to the status line, JSON and GPX.
    static func replay(path: String, outputs: TrackerOutput, progress: ProgressBar?, stop: StopFlag) throws(CLIError) {
        defer { try? outputs.finish() }
        let reader: ReplayReader
        do {
            reader = try ReplayReader(path: path)
        } catch {
            throw CLIError(error)
        }
        var reducer = SourceReducer(sourceName: path == "-" ? "standard input" : path)
        outputs.display.show(.starting("replaying \(path)"))
        while !stop.isSet, let report = try next(reader) {
            for update in reducer.reduce(.report(report)) {
                if try outputs.handle(update) { return }
                if case .location = update { progress?.advance() }
            }
        }
        for update in reducer.reduce(.state(.finished)) {
            _ = try outputs.handle(update)
        }
        try outputs.finish()
    }

    static func next(_ reader: ReplayReader) throws(CLIError) -> Report? {
        do {
            return try reader.next()
        } catch {
            throw CLIError(.ioError, error.message)
        }
    }

    /// How many fixes with a position the file holds: a first, quick pass for the progress bar.
    static func countFixes(_ path: String) throws(CLIError) -> Int {
        do {
            let reader = try ReplayReader(path: path)
            reader.includesSkyViews = false
            reader.includesAttitudes = false
            var count = 0
            while let report = try reader.next() {
                if case .fix(let fix) = report, fix.coordinate != nil { count += 1 }
            }
            return count
        } catch {
            throw CLIError(error)
        }
    }

    /// Writes all of `bytes` to stdout; false when the output is gone.
    private static func writeAll(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var offset = 0
        while offset < bytes.count {
            let written = write(STDOUT_FILENO, base + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }
}

/// Set once by a signal, read by the replay loop.
final class StopFlag: Sendable {
    private let flag = Mutex(false)
    /// Whether a stop was asked for.
    var isSet: Bool { flag.withLock { $0 } }
    /// Asks for a stop.
    func set() { flag.withLock { $0 = true } }
}
