import Synchronization

/// Where a location manager gets its reports: gpsd, a replayed log, or a test script.
///
/// A source offers its events two ways. ``events()`` starts a session as an `AsyncSequence`,
/// for anyone to iterate. ``startSession(deliveringTo:)`` starts one whose events are handed
/// to a handler on the main actor, which is how a location manager reads it: the default
/// iterates ``events()`` in a main-actor task, and a source that can do better (gpsd's client,
/// whose reader thread enqueues each event on the main queue directly) provides its own.
///
/// Each session is fresh; it ends when its sequence finishes or it is cancelled.
public protocol LocationSource: Sendable {
    /// The events of one session.
    associatedtype Events: AsyncSequence<SourceEvent, Never>

    /// Starts a session as a sequence; iterate it once.
    func events() -> Events

    /// Whether the source's locations are measured now or played back; each location carries it.
    var sourceInformation: SourceInformation { get }

    /// Starts a session whose events are handed to `handler` on the main actor, in order, then
    /// `nil` once when the session ends by itself. After ``SourceSession/cancel()`` the handler
    /// is not called again.
    @MainActor
    func startSession(deliveringTo handler: @escaping @MainActor (SourceEvent?) -> Void) -> SourceSession
}

extension LocationSource {
    /// Neither simulated nor from an accessory, unless the source says otherwise.
    public var sourceInformation: SourceInformation { SourceInformation() }

    /// Iterates ``events()`` in a task on the main actor. A source that pulls in batches (a
    /// replay) then costs one resumption per batch, and the consumer paces the producer.
    @MainActor
    public func startSession(deliveringTo handler: @escaping @MainActor (SourceEvent?) -> Void) -> SourceSession {
        let events = events()
        let task = Task { @MainActor in
            for await event in events {
                if Task.isCancelled { return }
                handler(event)
            }
            if !Task.isCancelled { handler(nil) }
        }
        return SourceSession { task.cancel() }
    }
}

/// A running session of a ``LocationSource``, owned by whoever started it: ``cancel()`` ends it,
/// and so does releasing it.
public final class SourceSession: Sendable {
    private let onCancel: @Sendable () -> Void
    private let cancelled = Atomic(false)

    /// Wraps what ends the session.
    public init(cancel: @escaping @Sendable () -> Void) {
        onCancel = cancel
    }

    /// Whether ``cancel()`` was called: a source checks it before handing over each event.
    public var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Ends the session; later calls do nothing.
    public func cancel() {
        if cancelled.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged {
            onCancel()
        }
    }

    deinit {
        cancel()
    }
}
