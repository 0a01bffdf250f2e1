/// Paces against one start instant: the fix stamped t is due at start + (t − first) / speed.
///
/// Each deadline comes from the start, never from the previous sleep, so however long a
/// replay runs, oversleeping one report does not push the later ones back (no drift).
struct ClockPacer<C: Clock>: ReplayPacer where C.Duration == Duration {
    let clock: C
    let speed: Double
    private var start: C.Instant?
    private var firstTime = 0.0

    init(clock: C, speed: Double) {
        self.clock = clock
        self.speed = speed
    }

    mutating func wait(forReceiverTime receiverTime: Double) async throws {
        guard let start else {
            start = clock.now
            firstTime = receiverTime
            return
        }
        let offset = (receiverTime - firstTime) / speed
        guard offset > 0, offset.isFinite else { return }
        try await clock.sleep(until: start.advanced(by: .seconds(offset)), tolerance: nil)
    }
}
