/// The pure state of a ``Broadcaster``: who listens, what was last sent, whether it ended.
///
/// Every mutation returns the side effects to perform; the caller performs them
/// outside the lock, so no continuation is resumed while the lock is held.
struct BroadcasterStateMachine<Element: Sendable> {
    typealias Continuation = AsyncStream<Element>.Continuation

    // Parallel arrays in subscription order: a send hands out `continuations` as it is (a
    // copy-on-write share, no allocation), which matters because every delegate callback sends.
    private var ids: [UInt64] = []
    private var continuations: [Continuation] = []
    private var nextID: UInt64 = 0
    private var latest: Element?
    private var finished = false
    private let replaysLatest: Bool
    private(set) var droppedCount = 0

    init(replaysLatest: Bool) {
        self.replaysLatest = replaysLatest
    }

    var subscriberCount: Int { ids.count }
    var latestElement: Element? { latest }

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

    /// Removes a subscriber whose stream ended (cancelled, or dropped by its consumer).
    mutating func unsubscribe(_ id: UInt64) {
        guard let index = ids.firstIndex(of: id) else { return }
        ids.remove(at: index)
        continuations.remove(at: index)
    }

    /// Returns the continuations to yield `element` to, in subscription order.
    mutating func send(_ element: Element) -> [Continuation] {
        guard !finished else { return [] }
        if replaysLatest { latest = element }
        return continuations
    }

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
        return all
    }
}
