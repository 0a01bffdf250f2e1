import Executors
import GPSReports

/// gpsd is the production location source: each session reconnects by itself and ends when
/// it is cancelled.
extension GPSDClient: LocationSource {
    /// A receiver attached to gpsd: locations produced by an accessory, measured now.
    public var sourceInformation: SourceInformation { .receiver }

    /// Hands each event to `handler` straight from the client's reader thread through
    /// `MainQueue` (the main actor's thread): iterating ``events()`` in a task would resume it
    /// through the global pool first, waking two threads per gpsd message instead of one.
    @MainActor
    public func startSession(deliveringTo handler: @escaping @MainActor (SourceEvent?) -> Void) -> SourceSession {
        let events = events()
        // The session holds `events`, and so the gpsd session, until it is cancelled or released.
        let session = SourceSession { events.cancel() }
        events.deliver(through: MainQueue.async) { [weak session] event in
            MainActor.assumeIsolated {
                // Events already posted when the session was cancelled are dropped.
                guard let session, !session.isCancelled else { return }
                handler(event)
            }
        }
        return session
    }
}
