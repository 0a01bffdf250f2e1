/// The pure state of a ``Broadcaster``: who listens, what was last sent, whether it ended.
///
/// Every mutation returns the side effects to perform; the caller performs them
/// outside the lock, so no continuation is resumed while the lock is held.
@usableFromInline
struct BroadcasterStateMachine<Element: Sendable> {
    @usableFromInline typealias Continuation = AsyncStream<Element>.Continuation

    // Parallel arrays in subscription order: a send hands out `continuations` as it is (a
    // copy-on-write share, no allocation), which matters because every delegate callback sends.
    private var ids: [UInt64] = []
    @usableFromInline var continuations: [Continuation] = []
    private var observerIDs: [UInt64] = []
    @usableFromInline var observers: [@Sendable (Element) -> Void] = []
    private var nextID: UInt64 = 0
    @usableFromInline var latest: Element?
    @usableFromInline var finished = false
    @usableFromInline let replaysLatest: Bool
    @usableFromInline var droppedCount = 0

    init(replaysLatest: Bool) {
        self.replaysLatest = replaysLatest
    }

    var subscriberCount: Int { ids.count + observerIDs.count }

    enum SubscribeAction {
        /// Registered under this id; yield the replay (if any) to it before anything else.
        case registered(id: UInt64, replay: Element?)
        /// The broadcaster already ended: yield the replay (if any), then finish the stream.
        case finishImmediately(replay: Element?)
    }

    /// Registers `continuation`. The caller yields the replay while still holding the lock
    /// so that no later element can overtake it.
    mutating func subscribe(_ continuation: Continuation, initial: Element?) -> SubscribeAction {
        let replay = initial ?? (replaysLatest ? latest : nil)
        if finished { return .finishImmediately(replay: replay) }
        nextID += 1
        ids.append(nextID)
        continuations.append(continuation)
        return .registered(id: nextID, replay: replay)
    }

    /// Registers a synchronous observer; returns its id and the replay to call it with first,
    /// or nil when the broadcaster already ended.
    mutating func observe(_ observer: @escaping @Sendable (Element) -> Void) -> (id: UInt64, replay: Element?)? {
        guard !finished else { return nil }
        nextID += 1
        observerIDs.append(nextID)
        observers.append(observer)
        return (nextID, replaysLatest ? latest : nil)
    }

    /// Removes a synchronous observer.
    mutating func stopObserving(_ id: UInt64) {
        guard let index = observerIDs.firstIndex(of: id) else { return }
        observerIDs.remove(at: index)
        observers.remove(at: index)
    }

    /// Removes a subscriber whose stream ended (cancelled, or dropped by its consumer).
    mutating func unsubscribe(_ id: UInt64) {
        guard let index = ids.firstIndex(of: id) else { return }
        ids.remove(at: index)
        continuations.remove(at: index)
    }

    /// Returns the continuations to yield `element` to and the observers to call with it, each
    /// in subscription order.
    @inlinable
    mutating func send(_ element: Element) -> (continuations: [Continuation], observers: [@Sendable (Element) -> Void]) {
        guard !finished else { return ([], []) }
        if replaysLatest { latest = element }
        return (continuations, observers)
    }

    @inlinable
    mutating func recordDrops(_ count: Int) {
        droppedCount += count
    }

    /// Ends the broadcaster; returns the continuations to finish.
    mutating func finish() -> [Continuation] {
        guard !finished else { return [] }
        finished = true
        let all = continuations
        ids.removeAll()
        continuations.removeAll()
        observerIDs.removeAll()
        observers.removeAll()
        return all
    }
}
