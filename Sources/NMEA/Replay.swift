import GPSReports
import Synchronization

/// Replays an NMEA log or a GPX track as a location source: an async, paced stream of the
/// reports gpsd would have produced, with the same `SourceEvent`s as a live gpsd connection.
///
/// Each call to ``events()`` starts a fresh run. Reading happens on a thread of its own and
/// only as fast as the consumer pulls, so memory stays bounded.
public struct Replay: Sendable {
    /// The file to replay ("-" for stdin).
    public let path: String
    /// The format, or `nil` to detect it from the content.
    public let format: ReplayFormat?
    /// How fast reports are delivered.
    public let pacing: ReplayPacing
    private let clock: any Clock<Duration>
    private let lastStatistics = StatisticsBox()

    /// Creates a replay of `path`; nothing is opened until ``events()`` is iterated.
    public init(path: String, format: ReplayFormat? = nil, pacing: ReplayPacing = .asFastAsPossible,
                clock: any Clock<Duration> = ContinuousClock()) {
        self.path = path
        self.format = format
        self.pacing = pacing
        self.clock = clock
    }

    /// A new run: `.connecting`, `.receiverPresent` once the file is open, the reports, then
    /// `.finished`; or `.disconnected(error)` then `.finished` when the file cannot be read.
    public func events() -> ReplayEvents {
        ReplayEvents(path: path, format: format, pacing: pacing, clock: clock, statistics: lastStatistics)
    }

    /// What the most recent run read and skipped; complete once it has finished.
    public var statistics: ReplayStatistics { lastStatistics.value }
}
