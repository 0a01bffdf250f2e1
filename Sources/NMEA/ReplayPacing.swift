/// How fast a replay delivers its reports.
public enum ReplayPacing: Sendable, Hashable {
    /// Every report as soon as it is decoded.
    case asFastAsPossible
    /// At the pace the receiver recorded them, `speed` times faster (2 = twice as fast).
    ///
    /// Each fix is due at the replay's start instant plus (fix time − first fix time) / speed,
    /// so a long replay does not drift. A jump in the log's clock, back in time or forward by more
    /// than 10 minutes (a receiver restart, a paused logger), is not waited out: the fix after
    /// it plays one second (over `speed`) after the one before, at once after a step back, and
    /// pacing goes on from there. A `speed` that is not positive and finite means as fast as possible.
    case realTime(speed: Double)
}
