import Dispatch
import GPSReports
import Synchronization

/// The events of one ``GPSDClient`` session, as ``GPSDClient/events()`` returns them.
///
/// It behaves as an `AsyncStream<SourceEvent>`: every event, in order, to one consumer. The
/// buffer between gpsd and the consumer is bounded: once the consumer is that far behind, the
/// session stops reading gpsd until it catches up (TCP's own flow control then holds gpsd back),
/// so a flood of reports costs a bounded amount of memory and no event is dropped. Cancelling
/// the consuming task, or discarding the sequence, ends the session. It exists because the standard stream is generic code the compiler cannot
/// specialise: on a live gpsd feed, resolving its generic metadata on the reader thread, per
/// message, cost more CPU than libgps spent parsing the message.
public struct GPSDEvents: AsyncSequence, Sendable {
    /// The events never fail.
    public typealias Failure = Never

    let consumer: Consumer

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

/// One producer (the session) and one consumer, a bounded buffer between them.
///
/// Every event is kept: a producer that gets ahead waits in ``awaitRoom()`` (on its own thread,
/// never the cooperative pool) until the consumer has taken half of what is pending.
final class GPSDEventChannel: Sendable {
    /// How many events may wait for the consumer before the producer is held back: enough for
    /// gpsd's bursts (a reconnect's device list and watch, a sky view beside every fix), small
    /// enough that a flood stays a few megabytes and a signal is handled after at most this many.
    static let defaultCapacity = 512

    private struct Sink {
        let post: @Sendable (@escaping @Sendable () -> Void) -> Void
        let handler: @Sendable (SourceEvent?) -> Void
    }

    private struct State {
        var sink: Sink?
        var buffer: [SourceEvent] = []
        /// The next event to hand out; the buffer is compacted once the consumer has caught up.
        var head = 0
        /// Events yielded and not yet taken by the iterator or run by the sink's handler.
        var pending = 0
        /// The producer, waiting in ``GPSDEventChannel/awaitRoom()``.
        var producer: DispatchSemaphore?
        var waiter: UnsafeContinuation<SourceEvent?, Never>?
        var finished = false
        var onTermination: (@Sendable () -> Void)?

        /// Counts `count` events as consumed; the producer to wake, once half the room is free.
        mutating func consumed(_ count: Int, capacity: Int) -> DispatchSemaphore? {
            pending -= count
            guard let producer, pending <= capacity / 2 else { return nil }
            self.producer = nil
            return producer
        }
    }

    private let capacity: Int
    private let state = Mutex(State())

    /// A channel that holds back its producer once `capacity` events are pending.
    init(capacity: Int = GPSDEventChannel.defaultCapacity) {
        self.capacity = max(1, capacity)
    }

    /// Called once, when the consumer goes away or the channel finishes.
    func onTermination(_ action: @escaping @Sendable () -> Void) {
        state.withLock { $0.onTermination = action }
    }

    /// The number of events yielded that the consumer has not taken yet.
    var pendingCount: Int {
        state.withLock { $0.pending }
    }

    /// Whether the producer is waiting in ``awaitRoom()``.
    var isHoldingBackProducer: Bool {
        state.withLock { $0.producer != nil }
    }

    /// Blocks the calling thread while the consumer is `capacity` events behind, until it has
    /// caught up by half or the channel ends. Only for the producer's own thread: it blocks.
    func awaitRoom() {
        let semaphore = state.withLock { state -> DispatchSemaphore? in
            guard !state.finished, state.pending >= capacity else { return nil }
            let semaphore = DispatchSemaphore(value: 0)
            state.producer = semaphore
            return semaphore
        }
        semaphore?.wait()
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
            post { [self] in
                for event in pending { handler(event) }
                if ended { handler(nil) }
                consumed(pending.count)
            }
        }
    }

    /// Hands `event` to the sink or the waiting consumer, or buffers it. Never blocks: the
    /// producer calls ``awaitRoom()`` before it reads more.
    func yield(_ event: SourceEvent) {
        let waiter = state.withLock { state -> UnsafeContinuation<SourceEvent?, Never>? in
            guard !state.finished else { return nil }
            if let sink = state.sink {
                state.pending += 1
                // Under the lock: the sink receives events in the order they were yielded.
                sink.post { [self] in
                    sink.handler(event)
                    consumed(1)
                }
                return nil
            }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.pending += 1
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

    private func consumed(_ count: Int) {
        state.withLock { $0.consumed(count, capacity: capacity) }?.signal()
    }

    /// Ends the channel once: a waiting consumer gets nil, a sink gets nil after what it was
    /// sent, a waiting producer goes on, and the termination action runs.
    private func end(droppingBuffer: Bool) {
        let (waiter, producer, action) = state.withLock { state in
            if droppingBuffer {
                state.pending -= state.buffer.count - state.head
                state.buffer.removeAll()
                state.head = 0
            }
            let producer = state.producer
            state.producer = nil
            guard !state.finished else {
                return (UnsafeContinuation<SourceEvent?, Never>?.none, producer, (@Sendable () -> Void)?.none)
            }
            state.finished = true
            if let sink = state.sink { sink.post { sink.handler(nil) } }
            defer { state.waiter = nil; state.onTermination = nil; state.sink = nil }
            return (state.waiter, producer, state.onTermination)
        }
        producer?.signal()
        waiter?.resume(returning: nil)
        action?()
    }

    func next(isolation actor: isolated (any Actor)?) async -> SourceEvent? {
        await withTaskCancellationHandler {
            await withUnsafeContinuation(isolation: actor) { (continuation: UnsafeContinuation<SourceEvent?, Never>) in
                let (ready, producer) = state.withLock { state -> (SourceEvent??, DispatchSemaphore?) in
                    if state.head < state.buffer.count {
                        let event = state.buffer[state.head]
                        state.head += 1
                        if state.head == state.buffer.count {
                            state.buffer.removeAll(keepingCapacity: true)
                            state.head = 0
                        }
                        return (.some(event), state.consumed(1, capacity: capacity))
                    }
                    if state.finished { return (.some(nil), nil) }
                    state.waiter = continuation
                    return (.none, nil)
                }
                producer?.signal()
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            terminate()
        }
    }
}
