/// An asynchronous sequence of events from a ``Broadcaster``: one subscriber's view.
///
/// It never fails; it finishes when its source ends (for delegate streams: when the
/// observed object is deallocated). Cancel the consuming task to unsubscribe at once.
public struct EventStream<Element: Sendable>: AsyncSequence, Sendable {
    /// Event streams never fail.
    public typealias Failure = Never

    private let base: AsyncStream<Element>

    init(_ base: AsyncStream<Element>) {
        self.base = base
    }

    /// Creates the iterator; a stream is meant to be iterated once.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator())
    }

    /// Iterates an ``EventStream``.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncStream<Element>.Iterator

        /// The next event, or `nil` once the stream finished or the task was cancelled.
        public mutating func next() async -> Element? {
            await base.next()
        }

        /// The next event, resuming on `actor`.
        public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
            await base.next(isolation: actor)
        }
    }
}
