import Foundation
import GPSReports
import NMEA
import Synchronization
import SystemPackage

/// `replay FILE --json` as fast as the decoder goes: the NMEA layer's allocation-free TPV
/// pipeline (TPV bytes straight into a 64 KiB buffer, on threads of its own), bypassing the
/// location manager.
///
/// It is used only where it prints exactly what the service path would: plain `--json`, with
/// no event that could interleave (no regions, no visits), no filter that could hold a fix back,
/// and nothing else asked for. A test compares the two, byte for byte, on every corpus log.
package enum FastReplay {
    /// Whether `replay` with these options and settings may take the fast path.
    package static func applies(options: OutputOptions, settings: Settings, paced: Bool) -> Bool {
        options.json && !options.sky && options.gpxPath == nil && options.stopAfter == nil && !paced
            && settings.regions.isEmpty && !settings.visits.enabled
            && settings.distanceFilter <= 0 && settings.desiredAccuracy <= 0
    }

    /// Replays `path` as TPV JSON lines to `descriptor`; a terminating signal stops it at the next
    /// output block.
    package static func run(path: String, descriptor: Int32 = STDOUT_FILENO) async throws(CLIError) {
        let stop = StopFlag()
        let lifecycle = await ProcessLifecycle(signals: [SIGTERM, SIGINT, SIGHUP])
        let states = await MainActor.run { lifecycle.rx.state }
        let watcher = Task {
            for await state in states {
                if case .terminating = state { stop.set() }
            }
        }
        defer { watcher.cancel() }
        let result: Result<Void, CLIError> = await withCheckedContinuation { continuation in
            let thread = Thread {
                do throws(CLIError) {
                    try replayJSON(path: path, descriptor: descriptor, stop: stop)
                    continuation.resume(returning: .success(()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
            thread.name = "geotrack replay"
            thread.start()
        }
        await lifecycle.cancel()
        try result.get()
    }

    /// The pipeline itself, on the calling thread.
    package static func replayJSON(path: String, descriptor: Int32, stop: StopFlag) throws(CLIError) {
        let reader: ReplayReader
        do {
            reader = try ReplayReader(path: path)
        } catch {
            throw CLIError(error)
        }
        let output = FileDescriptor(rawValue: descriptor)
        let writeFailure = Mutex<Errno?>(nil)
        do {
            _ = try TPVJSONPipeline.run(reader) { bytes in
                guard !stop.isSet else { return false }
                do {
                    _ = try output.writeAll(bytes)
                    return true
                } catch {
                    writeFailure.withLock { $0 = error as? Errno ?? .ioError }
                    return false
                }
            }
        } catch {
            throw CLIError(.ioError, error.message)
        }
        if let failure = writeFailure.withLock({ $0 }), !stop.isSet {
            throw CLIError(.ioError, "cannot write output: \(failure.description)")
        }
        if !stop.isSet, reader.statistics.decodedNothing {
            throw CLIError(.notALog(path))
        }
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

/// Set once by a signal, read by the replay loop.
package final class StopFlag: Sendable {
    private let flag = Atomic(false)
    /// Creates a flag that is not set.
    package init() {}
    /// Whether a stop was asked for.
    package var isSet: Bool { flag.load(ordering: .acquiring) }
    /// Asks for a stop.
    package func set() { flag.store(true, ordering: .releasing) }
}
