import GPSReports

/// A location source's events as tracker updates, through a ``SourceReducer``.
package struct SourceUpdates<Events: AsyncSequence & Sendable>: AsyncSequence, Sendable
where Events.Element == SourceEvent, Events.Failure == Never {
    package typealias Element = TrackerUpdate
    package typealias Failure = Never

    private let events: Events
    private let reducer: SourceReducer
    private let failOnDisconnect: Bool

    /// Wraps `events`; with `failOnDisconnect`, the first disconnection ends the run with its error
    /// (a replay's unreadable file, or `watch --no-retry`).
    package init(_ events: Events, sourceName: String, failOnDisconnect: Bool) {
        self.events = events
        self.reducer = SourceReducer(sourceName: sourceName)
        self.failOnDisconnect = failOnDisconnect
    }

    /// The status line before the first event.
    package var initialStatus: StatusState { reducer.initialStatus }

    package func makeAsyncIterator() -> Iterator {
        Iterator(base: events.makeAsyncIterator(), reducer: reducer, failOnDisconnect: failOnDisconnect)
    }

    /// Pulls one event at a time and hands out the updates it caused.
    package struct Iterator: AsyncIteratorProtocol {
        var base: Events.AsyncIterator
        var reducer: SourceReducer
        let failOnDisconnect: Bool
        var pending: [TrackerUpdate] = []
        var index = 0
        var ended = false

        package mutating func next() async -> TrackerUpdate? {
            while index >= pending.count {
                guard !ended, let event = await base.next(isolation: nil) else { return nil }
                pending = reducer.reduce(event)
                index = 0
                if failOnDisconnect, case .state(.disconnected(let error)) = event {
                    pending = [.failed(CLIError(error))]
                    ended = true
                }
            }
            defer { index += 1 }
            return pending[index]
        }
    }
}
