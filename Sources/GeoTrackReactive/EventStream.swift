import Synchronization

/// An asynchronous sequence of events from a ``Broadcaster``: one subscriber's view.
///
/// It never fails; it finishes when its source ends (for delegate streams: when the
/// observed object is deallocated). Cancel the consuming task, or let the stream and its
/// iterator go, to unsubscribe at once.
///
/// The stream is subscribed when it is created, so its first iterator receives every event from
/// then on. Iterating it again, or from a second task at the same time, subscribes again: that
/// iterator receives the events sent from its own start on (a replaying source's latest value
/// first), as a second subscription to an RxSwift observable does. No two iterators share, and
/// so split, one buffer.
public struct EventStream<Element: Sendable>: AsyncSequence, Sendable {
    /// Event streams never fail.
    public typealias Failure = Never

    /// Ends the subscription when neither the stream nor an iterator of it is left.
    final class Lifetime: Sendable {
        let channel: BufferedChannel<Element>
        /// Kept alive while the subscription is: what the source needs to go on sending
        /// (a driver's shared connection).
        private let retained: (any AnyObject & Sendable)?
        /// Whether an iterator has taken ``channel``; later iterators subscribe anew.
        let taken = Mutex(false)
        init(_ channel: BufferedChannel<Element>, retaining retained: (any AnyObject & Sendable)?) {
            self.channel = channel
            self.retained = retained
        }
        deinit { channel.terminate() }
    }

    private let lifetime: Lifetime
    /// Subscribes again, for an iterator after the first.
    private let resubscribe: @Sendable () -> EventStream<Element>

    init(_ channel: BufferedChannel<Element>, retaining retained: (any AnyObject & Sendable)? = nil,
         resubscribe: @escaping @Sendable () -> EventStream<Element>) {
        lifetime = Lifetime(channel, retaining: retained)
        self.resubscribe = resubscribe
    }

    /// Creates an iterator: the first one receives the events sent since this stream was made;
    /// each later one is a new subscription, from its own start on.
    public func makeAsyncIterator() -> AsyncIterator {
        let first = lifetime.taken.withLock { taken in
            defer { taken = true }
            return !taken
        }
        return first ? AsyncIterator(lifetime: lifetime) : resubscribe().makeAsyncIterator()
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
