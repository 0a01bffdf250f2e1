/// An asynchronous sequence of events from a ``Broadcaster``: one subscriber's view.
///
/// It never fails; it finishes when its source ends (for delegate streams: when the
/// observed object is deallocated). Cancel the consuming task, or let the stream and its
/// iterator go, to unsubscribe at once.
public struct EventStream<Element: Sendable>: AsyncSequence, Sendable {
    /// Event streams never fail.
    public typealias Failure = Never

    /// Ends the subscription when neither the stream nor an iterator of it is left.
    final class Lifetime: Sendable {
        let channel: BufferedChannel<Element>
        init(_ channel: BufferedChannel<Element>) { self.channel = channel }
        deinit { channel.terminate() }
    }

    private let lifetime: Lifetime

    init(_ channel: BufferedChannel<Element>) {
        lifetime = Lifetime(channel)
    }

    /// Creates the iterator; a stream is meant to be iterated once.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(lifetime: lifetime)
    }

    /// Iterates an ``EventStream``.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let lifetime: Lifetime

        /// The next event, or `nil` once the stream finished or the task was cancelled.
        public mutating func next() async -> Element? {
            await lifetime.channel.next()?.element
        }

        /// The next event, resuming on `actor`.
        public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
            await lifetime.channel.next(isolation: actor)?.element
        }
    }
}
