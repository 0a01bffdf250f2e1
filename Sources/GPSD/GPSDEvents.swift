import Dispatch
import GPSReports
import Synchronization

/// The events of one ``GPSDClient`` session, as ``GPSDClient/events()`` returns them.
///
/// It behaves as an `AsyncStream<SourceEvent>` with an unbounded buffer: every event, in
/// order, to one consumer. Cancelling the consuming task, or discarding the sequence, ends the
/// session. It exists because the standard stream is generic code the compiler cannot
/// specialise: on a live gpsd feed, resolving its generic metadata on the reader thread, per
/// message, cost more CPU than libgps spent parsing the message.
public struct GPSDEvents: AsyncSequence, Sendable {
    /// The events never fail.
    public typealias Failure = Never

    private let consumer: Consumer

    init(channel: GPSDEventChannel) {
        consumer = Consumer(channel: channel)
    }

    /// Creates the iterator; iterate the sequence once.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(consumer: consumer)
    }

    /// Instead of iterating: hands every event to `handler` on `queue`, in order, then `nil`
    /// once when the session ends (or ``cancel()`` is called). Returns at once.
    ///
    /// For a consumer that lives on a dispatch queue, such as the main actor under Swift's
    /// default executors (its executor is then the main queue): a task iterating the sequence is
    /// resumed through the global pool and then moved to its actor, which wakes two threads per
    /// message; this wakes one. `geotrack`'s own executors drain no dispatch queue: there, use
    /// ``deliver(through:to:)`` with `MainQueue.async`. Keep this value alive while delivering:
    /// when the last copy is released the session ends.
    public func deliver(on queue: DispatchQueue, to handler: @escaping @Sendable (SourceEvent?) -> Void) {
        consumer.channel.deliver(through: { queue.async(execute: $0) }, to: handler)
    }

    /// Like ``deliver(on:to:)``, through `post`, which must run the closures it is given
    /// one at a time in the order it was given them (such as `MainQueue.async`).
    public func deliver(
        through post: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void,
        to handler: @escaping @Sendable (SourceEvent?) -> Void
    ) {
        consumer.channel.deliver(through: post, to: handler)
    }

    /// Ends the session; a ``deliver(on:to:)`` handler then receives `nil`.
    public func cancel() {
        consumer.channel.terminate()
    }

    /// Iterates ``GPSDEvents``.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let consumer: Consumer

        /// The next event; nil once the session ended or the task was cancelled.
        public mutating func next() async -> SourceEvent? {
            await consumer.channel.next(isolation: nil)
        }

        /// The next event, resuming on `actor`.
        public mutating func next(isolation actor: isolated (any Actor)?) async -> SourceEvent? {
            await consumer.channel.next(isolation: actor)
        }
    }

    /// Held only by the consuming side: when the last copy of the sequence and its iterators
    /// is gone, nobody can read the session any more, and it is ended.
    final class Consumer: Sendable {
        let channel: GPSDEventChannel

        init(channel: GPSDEventChannel) {
            self.channel = channel
        }

        deinit {
            channel.terminate()
        }
    }
}

/// One producer (the session) and one consumer, an unbounded buffer between them.
final class GPSDEventChannel: Sendable {
    private struct Sink {
        let post: @Sendable (@escaping @Sendable () -> Void) -> Void
        let handler: @Sendable (SourceEvent?) -> Void
    }

    private struct State {
        var sink: Sink?
        var buffer: [SourceEvent] = []
        /// The next event to hand out; the buffer is compacted once the consumer has caught up.
        var head = 0
        var waiter: UnsafeContinuation<SourceEvent?, Never>?
        var finished = false
        var onTermination: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    /// Called once, when the consumer goes away or the channel finishes.
    func onTermination(_ action: @escaping @Sendable () -> Void) {
        state.withLock { $0.onTermination = action }
    }

    /// Switches to delivering through `post`: what is buffered first, then each event as it comes.
    func deliver(
        through post: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void,
        to handler: @escaping @Sendable (SourceEvent?) -> Void
    ) {
        state.withLock { state in
            // Enqueued under the lock, so no concurrent yield can overtake the buffered events.
            let pending = Array(state.buffer[state.head...])
            state.buffer.removeAll()
            state.head = 0
            let ended = state.finished
            state.sink = ended ? nil : Sink(post: post, handler: handler)
            post {
                for event in pending { handler(event) }
                if ended { handler(nil) }
            }
        }
    }

    /// Hands `event` to the sink or the waiting consumer, or buffers it.
    func yield(_ event: SourceEvent) {
        let waiter = state.withLock { state -> UnsafeContinuation<SourceEvent?, Never>? in
            guard !state.finished else { return nil }
            if let sink = state.sink {
                // Under the lock: the sink receives events in the order they were yielded.
                sink.post { sink.handler(event) }
                return nil
            }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.buffer.append(event)
            return nil
        }
        waiter?.resume(returning: event)
    }

    /// No more events: the consumer gets what is buffered, then nil.
    func finish() {
        end(droppingBuffer: false)
    }

    /// The consumer is gone: drop the buffer and end the session.
    func terminate() {
        end(droppingBuffer: true)
    }

    /// Ends the channel once: a waiting consumer gets nil, a sink gets nil after what it was
    /// sent, and the termination action runs.
    private func end(droppingBuffer: Bool) {
        let (waiter, action) = state.withLock { state -> (UnsafeContinuation<SourceEvent?, Never>?, (@Sendable () -> Void)?) in
            if droppingBuffer {
                state.buffer.removeAll()
                state.head = 0
            }
            guard !state.finished else { return (nil, nil) }
            state.finished = true
            if let sink = state.sink { sink.post { sink.handler(nil) } }
            defer { state.waiter = nil; state.onTermination = nil; state.sink = nil }
            return (state.waiter, state.onTermination)
        }
        waiter?.resume(returning: nil)
        action?()
    }

    func next(isolation actor: isolated (any Actor)?) async -> SourceEvent? {
        await withTaskCancellationHandler {
            await withUnsafeContinuation(isolation: actor) { (continuation: UnsafeContinuation<SourceEvent?, Never>) in
                let ready = state.withLock { state -> SourceEvent?? in
                    if state.head < state.buffer.count {
                        let event = state.buffer[state.head]
                        state.head += 1
                        if state.head == state.buffer.count {
                            state.buffer.removeAll(keepingCapacity: true)
                            state.head = 0
                        }
                        return .some(event)
                    }
                    if state.finished { return .some(nil) }
                    state.waiter = continuation
                    return .none
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            terminate()
        }
    }
}
