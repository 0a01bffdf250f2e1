import GPSReports

/// Where a ``LocationManager`` gets its reports: gpsd, a replayed log, or a test script.
///
/// Each call to ``events()`` starts a fresh session; the session ends when the
/// consuming task is cancelled or the sequence finishes.
public protocol LocationSource: Sendable {
    /// The events of one session.
    associatedtype Events: AsyncSequence<SourceEvent, Never>

    /// Starts a session.
    func events() -> Events
}
