import GPSReports

/// Runs updates through the outputs until the source ends, `--count` is reached, or `--timeout` expires.
package enum TrackerLoop {
    /// Why the loop ended.
    package enum Outcome: Sendable, Equatable {
        /// `--count`/`--once` was satisfied.
        case countReached
        /// The source ended (a replay's end).
        case sourceFinished
        /// The task was cancelled (graceful shutdown).
        case cancelled
    }

    /// Consumes `updates`; throws ``CLIError`` for a failed source or an expired timeout.
    package static func run<Updates: AsyncSequence<TrackerUpdate, Never> & Sendable>(
        _ updates: Updates, output: TrackerOutput, timeout: Duration?, clock: any Clock<Duration>
    ) async throws(CLIError) -> Outcome {
        do {
            return try await withThrowingTaskGroup(of: Outcome.self) { group in
                group.addTask {
                    for await update in updates {
                        if try output.handle(update) { return .countReached }
                    }
                    return Task.isCancelled ? .cancelled : .sourceFinished
                }
                if let timeout {
                    group.addTask {
                        try await clock.sleep(for: timeout)
                        let got = output.positions
                        throw CLIError(.noFix, got == 0
                            ? "no fix within \(format(timeout)); check the receiver has a clear view of the sky, or raise --timeout"
                            : "only \(got) fix\(got == 1 ? "" : "es") within \(format(timeout)); raise --timeout or lower --count")
                    }
                }
                defer { group.cancelAll() }
                guard let first = try await group.next() else { return .cancelled }
                return first
            }
        } catch let error as CLIError {
            throw error
        } catch is CancellationError {
            return .cancelled
        } catch {
            throw CLIError(.failure, "\(error)")
        }
    }

    static func format(_ duration: Duration) -> String {
        let seconds = StatusDisplay.seconds(duration)
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }
}

/// Maps a source's failure to the exit status that goes with it.
extension CLIError {
    /// The CLI error for a source error.
    package init(_ error: SourceError) {
        let status: ExitStatus = switch error.code {
        case .connectionRefused, .hostNotFound, .connectionClosed, .noReceiver: .unavailable
        case .unreadableFile: .noInput
        case .protocolError: .dataError
        case .io: .ioError
        }
        self.init(status, error.message)
    }
}
