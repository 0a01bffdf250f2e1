import GPSReports
import GeoTrackService
import Synchronization

/// The outputs of one run, as one consumer of the service's updates: the display (the status
/// line and event lines, or the sky view), then each ``RunOutput`` in turn, and the `--count`
/// tally.
///
/// It draws what the service decided and derives nothing: the status, the heading shown and the
/// events all come in the updates. Its only decision is when the run has what it asked for.
package final class TrackerOutput: Sendable {
    /// What an update means for the run.
    package enum Verdict: Sendable, Equatable {
        /// `--count`/`--once` is satisfied.
        case countReached
        /// The source ended by itself (a replay's end).
        case sourceFinished
        /// Nobody reads the output any more (`… | head -1`): stop, finishing the files.
        case outputClosed
    }

    /// The status line (or plain lines, or nothing), or the sky view.
    package let display: any TrackerDisplay
    /// The outputs, in the order they see each update.
    let outputs: [any RunOutput]
    private let stopAfter: Int?
    /// When the outputs act between updates (``runTimer(clock:)``).
    let ticks = TickSchedule()
    /// `--publish`: the outbox and its senders (also among ``outputs``), which the session
    /// closes, waiting for the senders.
    package let publisher: PublishOutput?
    private let state = Mutex(State())

    private struct State {
        var positions = 0
        var status: TrackingStatus?
    }

    /// Creates the outputs.
    /// - Parameters:
    ///   - outputs: the outputs, in the order they see each update (``TrackerOutputs`` orders them).
    ///   - stopAfter: how many locations satisfy the run (`--count`), if any.
    ///   - device: the receiver asked for with `--device`, to name in a timeout's error.
    package init(display: any TrackerDisplay, outputs: [any RunOutput] = [], stopAfter: Int?, device: String? = nil) {
        self.device = device
        self.display = display
        self.outputs = outputs
        self.stopAfter = stopAfter
        self.publisher = outputs.lazy.compactMap { $0 as? PublishOutput }.first
    }

    /// The receiver asked for with `--device`, if any.
    package let device: String?

    /// How many locations went out so far.
    package var positions: Int { state.withLock { $0.positions } }

    /// The last status drawn, to say why a `--timeout` expired.
    package var lastStatus: TrackingStatus? { state.withLock { $0.status } }

    /// Handles one update; returns a verdict when the run has what it needs, throws when the
    /// source failed for good.
    package func handle(_ update: TrackingUpdate) throws(CLIError) -> Verdict? {
        defer { ticks.updated(due: { nextTick }) }
        let verdict = try draw(update)
        // The write that found the reader gone was this one: end, closing the files properly.
        if verdict == nil, display.isClosed || outputs.contains(where: \.isClosed) { return .outputClosed }
        return verdict
    }

    private func draw(_ update: TrackingUpdate) throws(CLIError) -> Verdict? {
        if case .status(let status) = update {
            state.withLock { $0.status = status }
            if case .failed(let error) = status {
                // The error is the run's last word, on stderr; the line keeps what it showed.
                throw CLIError(error)
            }
        }
        try display.handle(update)
        for (index, output) in outputs.enumerated() {
            do {
                try output.handle(update)
            } catch {
                // The outputs after it never see this update (a GPX point that could not be
                // written): what they held for it must not come out at the end either.
                for later in outputs[(index + 1)...] { later.abandon() }
                throw error
            }
        }
        switch update {
        case .status(.finished):
            return .sourceFinished
        case .location:
            let count = state.withLock { state in
                state.positions += 1
                return state.positions
            }
            if let stopAfter, count >= stopAfter { return .countReached }
        default:
            break
        }
        return nil
    }

    /// Finishes every output (the first error is thrown once all have had their turn),
    /// restores the terminal, then writes what goes after it (the statistics).
    package func finish() throws(CLIError) {
        ticks.finish()
        var firstError: CLIError?
        for output in outputs {
            do {
                try output.finish()
            } catch {
                firstError = firstError ?? error
            }
        }
        do {
            try display.finish()
        } catch {
            firstError = firstError ?? error
        }
        for output in outputs {
            output.finishAfterDisplay()
        }
        if let firstError { throw firstError }
    }
}
