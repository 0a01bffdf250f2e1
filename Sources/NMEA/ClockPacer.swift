/// Paces against one start instant: the fix stamped t is due at start + (t − first) / speed.
///
/// Each deadline comes from the start, never from the previous sleep, so however long a
/// replay runs, oversleeping one report does not push the later ones back (no drift).
///
/// A log's clock is not always continuous: a receiver that restarts reports 1980 and then the
/// real date, a week-rollover correction jumps decades, a logger that was paused resumes hours
/// later. Waiting out such a jump would never end, so a step back in time, or forward by more
/// than ``longestGap``, is a break: the fix after it is played ``pauseAfterBreak`` after the
/// one before (at once after a step back), and pacing goes on from it.
struct ClockPacer<C: Clock>: ReplayPacer where C.Duration == Duration {
    /// The longest gap between two fixes that is played as recorded, in seconds of log time.
    static var longestGap: Double { 600 }
    /// How long after the previous fix a fix that follows a forward break plays, in seconds of
    /// log time (divided by the speed, like every wait).
    static var pauseAfterBreak: Double { 1 }

    let clock: C
    let speed: Double
    private var start: C.Instant?
    private var firstTime = 0.0
    private var lastTime = 0.0

    init(clock: C, speed: Double) {
        self.clock = clock
        self.speed = speed
    }

    mutating func wait(forReceiverTime receiverTime: Double) async throws {
        guard receiverTime.isFinite else { return }
        guard let anchor = start else {
            start = clock.now
            firstTime = receiverTime
            lastTime = receiverTime
            return
        }
        var start = anchor
        let step = receiverTime - lastTime
        if step < 0 || step > Self.longestGap {
            // What follows is paced from the previous fix's due instant, plus the pause.
            let previousDue = anchor.advanced(by: .seconds((lastTime - firstTime) / speed))
            start = previousDue.advanced(by: .seconds(step < 0 ? 0 : Self.pauseAfterBreak / speed))
            firstTime = receiverTime
            self.start = start
        }
        lastTime = receiverTime
        // Never negative: a step back starts a new anchor at this fix.
        let offset = (receiverTime - firstTime) / speed
        let due = start.advanced(by: .seconds(offset))
        // A fix due at its anchor (after a step back) plays at once; every later one sleeps,
        // which also notices a cancelled replay.
        guard offset > 0 || due > clock.now else { return }
        try await clock.sleep(until: due, tolerance: nil)
    }
}
