/// Delays reports so a replay runs at the receiver's own pace, times a speed factor.
protocol ReplayPacer: Sendable {
    /// Waits until the report stamped `receiverTime` (seconds since 1970) is due.
    mutating func wait(forReceiverTime receiverTime: Double) async throws
}
