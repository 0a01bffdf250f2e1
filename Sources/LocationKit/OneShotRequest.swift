import FoundationEssentials

/// A pending ``LocationManager/requestLocation()``: its timeout, and the async callers awaiting it.
struct OneShotRequest {
    typealias Waiter = CheckedContinuation<Result<Location, any Error>, Never>

    var timeout: Task<Void, Never>?
    var waiters: [UInt64: Waiter] = [:]
    /// The most accurate location so far that did not meet ``LocationManager/desiredAccuracy``.
    var best: Location?
    /// Whether ``LocationManager/requestLocation()`` asked for it (not only async waiters).
    var askedByDelegate = false
    /// The time of the newest location the delegate was given while the request was pending
    /// (standard updates running beside it), so that its answer never goes out behind it.
    var newestDelivered: Date?

    /// Ends the request: cancels the timeout and hands every waiter `result`.
    func complete(with result: Result<Location, any Error>) {
        timeout?.cancel()
        for waiter in waiters.values { waiter.resume(returning: result) }
    }
}
