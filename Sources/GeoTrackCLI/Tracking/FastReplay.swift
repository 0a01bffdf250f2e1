import Executors
import NMEA
import TPVJSONBulk
import Synchronization
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// `replay FILE --json` as fast as the decoder goes: the NMEA layer's allocation-free TPV
/// pipeline (TPV bytes straight into a 64 KiB buffer, on threads of its own), bypassing the
/// location manager.
///
/// It is used only where it prints exactly what the service path would: plain `--json`, with
/// no event that could interleave (no regions, no visits), no filter that could hold a fix back,
/// and nothing else asked for. A test compares the two, byte for byte, on every corpus log.
package enum FastReplay {
    /// Whether `replay` with these options and settings may take the fast path: every output but
    /// the JSON lines says it is not asked for (publishing to the configuration's destinations
    /// too), and nothing else changes what is printed.
    package static func applies(options: OutputOptions, settings: Settings, paced: Bool) -> Bool {
        let context = OutputContext(options: options, settings: settings, live: paced, sourceName: "", input: nil,
                                    showsProgress: !paced, descriptor: STDOUT_FILENO, environment: [:])
        return TrackerOutputs.requestsOnlyJSONLines(context) && !options.sky && options.stopAfter == nil && !paced
            && settings.regions.isEmpty && !settings.visits.enabled
            && settings.distanceFilter <= 0 && settings.accuracyFilter <= 0
    }

    /// Replays `path` as TPV JSON lines to `descriptor`. A terminating signal stops it at the next
    /// output block, or, when the input has stalled (a pipe that says nothing) and the reader
    /// thread is stuck in `read(2)`, after half a second: the command returns and the process
    /// ends with that thread.
    package static func run(path: String, descriptor: Int32 = STDOUT_FILENO) async throws(CLIError) {
        let stop = StopFlag()
        let outcome = Outcome()
        let lifecycle = await RunLifecycle(suspends: false, resizes: false)
        let watcher = Task {
            for await event in lifecycle.events {
                guard case .terminate = event else { continue }
                stop.set()
                try? await Task.sleep(for: .milliseconds(500))
                outcome.resolve(.success(()))
            }
        }
        defer { watcher.cancel() }
        DetachedThread.startOrRun(name: "geotrack replay") {
            do throws(CLIError) {
                try replayJSON(path: path, descriptor: descriptor, stop: stop)
                outcome.resolve(.success(()))
            } catch {
                outcome.resolve(.failure(error))
            }
        }
        let result = await outcome.value()
        await lifecycle.end()
        try result.get()
    }

    /// The first of the reader's end and a terminating signal's deadline, whichever comes first.
    final class Outcome: Sendable {
        private let state = Mutex<(result: Result<Void, CLIError>?, waiter: CheckedContinuation<Result<Void, CLIError>, Never>?)>((nil, nil))

        func resolve(_ result: Result<Void, CLIError>) {
            let waiter = state.withLock { state -> CheckedContinuation<Result<Void, CLIError>, Never>? in
                guard state.result == nil else { return nil }
                state.result = result
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: result)
        }

        func value() async -> Result<Void, CLIError> {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Result<Void, CLIError>? in
                    if let result = state.result { return result }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }

    /// The pipeline itself, on the calling thread.
    package static func replayJSON(path: String, descriptor: Int32, stop: StopFlag) throws(CLIError) {
        let output = FileDescriptor(rawValue: descriptor)
        let writeFailure = Mutex<Errno?>(nil)
        let write: @Sendable (UnsafeRawBufferPointer) -> Bool = { bytes in
            guard !stop.isSet else { return false }
            do {
                _ = try output.writeAll(bytes)
                return true
            } catch Errno.brokenPipe {
                // The reader went away (`… | head -1`): stop quietly, as a pipeline expects.
                return false
            } catch {
                writeFailure.withLock { $0 = error as? Errno ?? .ioError }
                return false
            }
        }
        let statistics: ReplayStatistics
        do {
            // A regular file of NMEA is decoded in chunks on every core; anything else (stdin,
            // a pipe, a small file, GPX) by one decoder, with the JSON on a second thread.
            if let outcome = try ParallelTPVJSON.run(path: path, write: write) {
                statistics = outcome.statistics
            } else {
                let reader = try ReplayReader(path: path)
                _ = try TPVJSONPipeline.run(reader, write: write)
                statistics = reader.statistics
            }
        } catch {
            throw CLIError(error)
        }
        if let failure = writeFailure.withLock({ $0 }), !stop.isSet {
            throw CLIError.cannotWriteStandardOutput(failure)
        }
        if !stop.isSet, statistics.decodedNothing {
            throw CLIError(.notALog(path, statistics))
        }
        if let note = LocationSources.skippedNote(statistics, path: path) { Terminal.standardError(note) }
    }

    /// How many fixes with a position the file holds: a first, quick pass for a progress bar.
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
}
