import GPSReports
import NMEA

/// A recorded NMEA log or GPX track as a ``LocationSource``, paced by a clock you control.
///
/// With a ``ManualClock`` and `speed` 1, one second of the recording passes each time the
/// test advances the clock by one second; with ``ReplayPacing/asFastAsPossible`` the
/// reports arrive as fast as they are consumed and the clock is not used.
///
/// Its default pacing is real time, while `Replay`'s is as fast as possible: pacing a replay
/// on a clock the test drives is what this type is for. To read a log as fast as possible,
/// hand `Replay` to the manager directly.
public struct ReplayLocationSource: PulledLocationSource {
    /// Played back, not measured: locations are marked simulated.
    public var sourceInformation: SourceInformation { .simulated }

    /// The underlying replay.
    public let replay: Replay

    /// Replays `path` at `pacing`, sleeping on `clock`.
    public init(path: String, format: ReplayFormat? = nil, pacing: ReplayPacing = .realTime(speed: 1),
                clock: any Clock<Duration>) {
        replay = Replay(path: path, format: format, pacing: pacing, clock: clock)
    }

    /// Starts a run of the replay.
    public func events() -> ReplayEvents {
        replay.events()
    }
}
