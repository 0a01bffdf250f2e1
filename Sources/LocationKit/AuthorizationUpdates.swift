import GeoTrackReactive

/// Whether location access is granted: the current answer, and — when undecided — the
/// decision once made. See ``LocationManager/authorizationUpdates``.
public struct AuthorizationUpdates: AsyncSequence, Sendable {
    /// Never fails.
    public typealias Failure = Never

    let initial: AuthorizationStatus
    let changes: EventStream<AuthorizationStatus>

    /// Creates the iterator.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(pending: initial, changes: changes.makeAsyncIterator())
    }

    /// Iterates ``AuthorizationUpdates``.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var pending: AuthorizationStatus?
        var changes: EventStream<AuthorizationStatus>.AsyncIterator
        var done = false

        /// The next answer, or `nil` once decided.
        public mutating func next() async -> Bool? {
            await next(isolation: nil)
        }

        /// The next answer, resuming on `actor`.
        public mutating func next(isolation actor: isolated (any Actor)?) async -> Bool? {
            if done { return nil }
            if let status = pending {
                pending = nil
                if status != .notDetermined { done = true }
                return status.isAuthorized
            }
            while let status = await changes.next(isolation: actor) {
                if status != .notDetermined {
                    done = true
                    return status.isAuthorized
                }
            }
            done = true
            return nil
        }
    }
}
