import Synchronization

/// Sends every element to any number of ``EventStream`` subscribers.
///
/// Buffering policy: each subscriber has its own buffer holding at most
/// ``bufferLimit`` elements. A producer that can wait (one that pulls its input, as a
/// location manager reading a replay does) calls ``waitForRoom()`` between elements and so
/// never outruns the slowest subscriber: nothing is dropped. A producer that cannot wait (a
/// live receiver) just sends: when a subscriber falls ``bufferLimit`` elements behind, its
/// *oldest* buffered element is dropped to make room for the newest, and the drop is counted
/// in ``droppedCount``. A slow subscriber therefore never blocks such a producer or the
/// other subscribers, and never grows memory without bound.
///
/// A subscriber is released the moment its consuming task is cancelled or its
/// stream is discarded. ``finish()`` ends every stream after its buffered elements.
///
/// Elements reach each subscriber in the order of ``send(_:)`` calls; callers
/// send from one producer at a time (an actor, or one task).
public final class Broadcaster<Element: Sendable>: Sendable {
    @usableFromInline let state: Mutex<BroadcasterStateMachine<Element>>

    /// The most elements one subscriber may have waiting before the oldest is dropped.
    public let bufferLimit: Int

    /// Creates a broadcaster.
    /// - Parameters:
    ///   - bufferLimit: the per-subscriber buffer size (at least 1).
    ///   - replaysLatest: whether a new subscriber first receives the last element sent.
    public init(bufferLimit: Int = 128, replaysLatest: Bool = false) {
        self.bufferLimit = max(1, bufferLimit)
        self.state = Mutex(BroadcasterStateMachine(replaysLatest: replaysLatest))
    }

    /// How many subscribers are attached.
    public var subscriberCount: Int { state.withLock { $0.subscriberCount } }

    /// How many elements were dropped, over all subscribers, because a buffer was full.
    public var droppedCount: Int { state.withLock { $0.droppedCount } }

    /// The last element sent, when this broadcaster replays it.
    @inlinable
    public var latest: Element? { state.withLock { $0.latest } }

    /// Subscribes now: the stream receives every element sent from this call on.
    ///
    /// - Parameter initial: an element to deliver first (for "current value, then changes"
    ///   streams); when `nil`, a replaying broadcaster delivers its latest element.
    public func subscribe(startingWith initial: Element? = nil) -> EventStream<Element> {
        subscribe(startingWith: initial, retaining: nil)
    }

    /// Subscribes now, keeping `retained` alive as long as the subscription (see
    /// ``subscribe(startingWith:)``). A later iterator of the stream subscribes again, with no
    /// initial element: only the replay of a replaying broadcaster.
    func subscribe(startingWith initial: Element?, retaining retained: (any AnyObject & Sendable)?) -> EventStream<Element> {
        // Half the buffer: a waiting producer resumes with room for what one input causes.
        let channel = BufferedChannel<Element>(capacity: bufferLimit, highWater: max(1, bufferLimit / 2))
        let action = state.withLock { $0.subscribe(.stream(channel), initial: initial) }
        switch action {
        case .live(let id):
            channel.onTermination { [weak self] in self?.state.withLock { $0.unsubscribe(id) } }
        case .replay(let id, let replay):
            channel.onTermination { [weak self] in self?.state.withLock { $0.unsubscribe(id) } }
            channel.send(replay)
            catchUp(id) { channel.send($0) }
        case .finished(let replay):
            if let replay { channel.send(replay) }
            channel.finish()
        }
        return EventStream(channel, retaining: retained) { [weak self] in
            guard let self else { return Self.finishedStream(retaining: retained) }
            return subscribe(startingWith: nil, retaining: retained)
        }
    }

    /// A stream that has already ended: what a broadcaster that went away still gives.
    private static func finishedStream(retaining retained: (any AnyObject & Sendable)?) -> EventStream<Element> {
        let channel = BufferedChannel<Element>(capacity: 1, highWater: 1)
        channel.finish()
        return EventStream(channel, retaining: retained) { finishedStream(retaining: retained) }
    }

    /// Calls `observer` synchronously, in the sender's context, with each element sent from now
    /// on (a replaying broadcaster first calls it with its latest element).
    ///
    /// Unlike a stream, an observer costs no task and no thread wake-up per element; in return it
    /// runs inside ``send(_:)``, so it should be quick. No lock is held while it runs: it may
    /// observe or subscribe (to this broadcaster or another), cancel, or send.
    /// Observing stops when the returned ``ObservationToken`` is cancelled or deallocated.
    public func observe(_ observer: @escaping @Sendable (Element) -> Void) -> ObservationToken {
        let action = state.withLock { $0.subscribe(.observer(observer), initial: nil) }
        let id: UInt64
        switch action {
        case .live(let live):
            id = live
        case .replay(let catching, let replay):
            id = catching
            observer(replay)
            catchUp(id, deliver: observer)
        case .finished:
            return ObservationToken {}
        }
        return ObservationToken { [weak self] in
            self?.state.withLock { $0.unsubscribe(id) }
        }
    }

    /// Hands a new subscriber what was sent while its replay was delivered, outside the lock,
    /// until it has caught up and joined the live subscribers.
    private func catchUp(_ id: UInt64, deliver: (Element) -> Void) {
        while true {
            switch state.withLock({ $0.catchUp(id) }) {
            case .deliver(let elements):
                for element in elements { deliver(element) }
            case .done:
                return
            case .finish(let continuation):
                continuation?.finish()
                return
            }
        }
    }

    /// Delivers `element` to every current subscriber and observer.
    @inlinable
    public func send(_ element: Element) {
        let (continuations, observers) = state.withLock { $0.send(element) }
        var drops = 0
        for continuation in continuations where continuation.send(element) {
            drops += 1
        }
        if drops > 0 { state.withLock { $0.recordDrops(drops) } }
        for observer in observers { observer(element) }
    }

    /// Whether ``waitForRoom()`` would wait now: some stream subscriber has half of
    /// ``bufferLimit`` elements or more waiting. Lets a producer skip the wait, and its
    /// suspension, in the usual case.
    public var needsRoom: Bool {
        state.withLock { $0.channels }.contains { $0.needsRoom }
    }

    /// Returns once every stream subscriber has fewer than half of ``bufferLimit`` elements
    /// waiting (or went away, or the calling task was cancelled): a producer that can wait calls
    /// it before producing more, so that no subscriber ever loses an element. Observers are
    /// called synchronously and never hold anything up.
    public func waitForRoom() async {
        let channels = state.withLock { $0.channels }
        // One after the other: while this producer waits, nothing new fills the others.
        for channel in channels { await channel.waitForRoom() }
    }

    /// Forgets the latest element, so that a later subscriber is not handed it: the value no
    /// longer holds. Current subscribers keep what they have.
    public func forgetLatest() {
        state.withLock { $0.forgetLatest() }
    }

    /// Ends every stream; later subscribers get an already-finished stream.
    public func finish() {
        let targets = state.withLock { $0.finish() }
        for continuation in targets { continuation.finish() }
    }

    deinit {
        // Subscribers must not wait forever on a broadcaster nobody can send to any more.
        finish()
    }
}
