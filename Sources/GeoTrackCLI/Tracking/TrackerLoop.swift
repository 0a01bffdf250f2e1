import GPSReports
import GeoTrackService

/// Waits for a run to end: the outputs' first verdict (`--count` reached, the source's end), a
/// failure, or `--timeout`.
package enum TrackerLoop {
    /// Waits for the first of `verdicts` and returns it, or nil when the wait was cancelled (a
    /// graceful shutdown); throws ``CLIError`` for a failed source or an expired timeout.
    package static func run<Verdicts: AsyncSequence<Result<TrackerOutput.Verdict, CLIError>, Never> & Sendable>(
        _ verdicts: Verdicts, output: TrackerOutput, timeout: Duration?, clock: any Clock<Duration>
    ) async throws(CLIError) -> TrackerOutput.Verdict? {
        do {
            return try await withThrowingTaskGroup(of: TrackerOutput.Verdict?.self) { group in
                group.addTask {
                    for await verdict in verdicts {
                        return try verdict.get()
                    }
                    return nil
                }
                if let timeout {
                    group.addTask {
                        try await clock.sleep(for: timeout)
                        throw timeoutError(timeout, positions: output.positions, status: output.lastStatus, device: output.device)
                    }
                }
                defer { group.cancelAll() }
                // The first task to finish decides; none at all means cancelled.
                return try await group.next() ?? nil
            }
        } catch let error as CLIError {
            throw error
        } catch is CancellationError {
            return nil
        } catch {
            throw CLIError(.failure, "\(error)")
        }
    }

    /// What an expired `--timeout` says: the true cause where the status knows it.
    static func timeoutError(_ timeout: Duration, positions: Int, status: TrackingStatus?, device: String? = nil) -> CLIError {
        let within = "within \(format(timeout))"
        if positions > 0 {
            return CLIError(.temporaryFailure, "only \(positions) fix\(positions == 1 ? "" : "es") \(within); raise --timeout or lower --count")
        }
        switch status {
        case .unreachable(let error, _)?:
            return CLIError(.temporaryFailure, "no fix \(within): gpsd was unreachable (\(error?.message ?? "no answer")); check gpsd is running")
        case .noReceiver?:
            if let device {
                return CLIError(.temporaryFailure, "no fix \(within): gpsd has no receiver \(device); check the --device path ('geotrack devices' lists gpsd's)")
            }
            return CLIError(.temporaryFailure, "no fix \(within): gpsd has no receiver; attach one (gpsdctl add DEVICE)")
        case .starting?:
            return CLIError(.temporaryFailure, "no fix \(within): no answer from the source yet; check gpsd is running, or raise --timeout")
        case .stale(nil)?:
            return CLIError(.temporaryFailure, "no fix \(within): the receiver sent nothing; check it is plugged in and gpsd reads it (gpsmon)")
        default:
            return CLIError(.temporaryFailure, "no fix \(within); check the receiver has a clear view of the sky, or raise --timeout")
        }
    }

    static func format(_ duration: Duration) -> String {
        let seconds = duration.inSeconds
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }
}
