extension ReplayPacing {
    /// A pacer for this pacing on `clock`, or `nil` for as fast as possible.
    func makePacer(clock: some Clock<Duration>) -> (any ReplayPacer)? {
        switch self {
        case .asFastAsPossible:
            return nil
        case .realTime(let speed):
            guard speed > 0, speed.isFinite else { return nil }
            return ClockPacer(clock: clock, speed: speed)
        }
    }
}
