import GPSReports
import GeoTrackService
import Synchronization

/// The outputs of one run, as one consumer of the service's updates: the status line and event
/// lines, gpsd-style JSON lines, a GPX file, a progress bar, and the `--count` tally.
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
    private let json: LineWriter?
    private let includesSky: Bool
    let gpx: GPXWriter?
    private let progress: ProgressBar?
    private let stopAfter: Int?
    private let statistics: StatisticsOutput?
    private let picture: PictureOutput?
    /// When the outputs act between updates (``runTimer(clock:)``).
    let ticks = TickSchedule()
    /// `--publish`: the outbox and its senders.
    package let publisher: PublishOutput?
    private let state = Mutex(State())

    private struct State {
        var positions = 0
        var status: TrackingStatus?
        /// JSON lines held back until the GPX point of the fix they start with is written: a
        /// position's TPV, and the events it caused.
        var held: [String] = []
    }

    /// Creates the outputs.
    /// - Parameters:
    ///   - json: where gpsd TPV lines (and SKY lines with `includesSky`) and event objects go.
    ///   - stopAfter: how many locations satisfy the run (`--count`), if any.
    ///   - statistics: where the run's locations are summed up, written at the end (`--stats`).
    ///   - picture: the track drawn at the end (`--svg`).
    package init(display: any TrackerDisplay, json: LineWriter?, includesSky: Bool = false, gpx: GPXWriter?,
                 progress: ProgressBar? = nil, stopAfter: Int?, statistics: StatisticsOutput? = nil,
                 picture: PictureOutput? = nil, publisher: PublishOutput? = nil) {
        self.display = display
        self.json = json
        self.includesSky = includesSky
        self.gpx = gpx
        self.progress = progress
        self.stopAfter = stopAfter
        self.statistics = statistics
        self.picture = picture
        self.publisher = publisher
    }

    /// How many locations went out so far.
    package var positions: Int { state.withLock { $0.positions } }

    /// The last status drawn, to say why a `--timeout` expired.
    package var lastStatus: TrackingStatus? { state.withLock { $0.status } }

    /// Handles one update; returns a verdict when the run has what it needs, throws when the
    /// source failed for good.
    package func handle(_ update: TrackingUpdate) throws(CLIError) -> Verdict? {
        defer { ticks.updated(due: { nextTick }) }
        let verdict = try draw(update)
        // The write that found the reader gone was this one: end, closing the GPX file properly.
        if verdict == nil, json?.isClosed == true || display.isOutputClosed { return .outputClosed }
        return verdict
    }

    private func draw(_ update: TrackingUpdate) throws(CLIError) -> Verdict? {
        // Whatever a reader of the JSON has seen is already in the track: a position's TPV (and
        // the events it caused) waits for its location's GPX point, or for the next report when
        // the manager's filters hold the location back.
        if case .report(let report) = update {
            releaseHeldLines()
            display.report(report)
        }
        switch update {
        case .status(let status):
            state.withLock { $0.status = status }
            switch status {
            case .failed(let error):
                // The error is the run's last word, on stderr; the line keeps what it showed.
                throw CLIError(error)
            case .finished:
                display.show(status)
                return .sourceFinished
            default:
                display.show(status)
            }
        case .report(.fix(let fix)):
            if let json {
                let line = fix.tpvJSON()
                if gpx != nil, fix.hasPosition {
                    state.withLock { $0.held = [line] }
                } else {
                    json.write(line)
                }
            }
        case .report(.sky(let sky)):
            if includesSky { json?.write(sky.skyJSON()) }
        case .report:
            break
        case .event(let event):
            display.event(event)
            try publisher?.handle(update)
            if let json {
                let line = EventJSON.line(event)
                let held = state.withLock { state in
                    if state.held.isEmpty { return false }
                    state.held.append(line)
                    return true
                }
                if !held { json.write(line) }
            }
        case .location(let location):
            try gpx?.append(location.fix, gnss: location.gnss)
            statistics?.add(location)
            picture?.add(location)
            try publisher?.handle(update)
            releaseHeldLines()
            progress?.advance()
            let count = state.withLock { state in
                state.positions += 1
                return state.positions
            }
            if let stopAfter, count >= stopAfter { return .countReached }
        }
        return nil
    }

    private func releaseHeldLines() {
        guard let json else { return }
        let lines = state.withLock { state -> [String] in
            defer { state.held = [] }
            return state.held
        }
        for line in lines { json.write(line) }
    }

    /// Flushes JSON, closes the GPX file (writing its closing tags), restores the terminal, then
    /// writes the statistics.
    package func finish() throws(CLIError) {
        ticks.finish()
        releaseHeldLines()
        json?.flush()
        progress?.finish()
        defer {
            display.finish()
            statistics?.write()
        }
        try gpx?.close()
        try picture?.write()
    }
}
