/// The pure state of a ``Broadcaster``: who listens, what was last sent, whether it ended.
///
/// Every mutation returns the effects to perform (continuations to yield to or finish,
/// observers to call, a replay to deliver); the caller performs them after releasing the lock,
/// as swift-async-algorithms' channel storage does. No continuation is resumed and no observer
/// is called while the lock is held, so an observer may subscribe, observe, cancel or send.
///
/// Order without the lock: a new subscriber's replay is delivered by the subscribing thread
/// outside the lock, so elements sent meanwhile are kept in that subscriber's backlog and
/// handed over after the replay (``catchUp(_:)``); only then does it join the live lists.
@usableFromInline
struct BroadcasterStateMachine<Element: Sendable> {
    @usableFromInline typealias Continuation = BufferedChannel<Element>
    @usableFromInline typealias Observer = @Sendable (Element) -> Void

    /// Where one subscriber's elements go.
    @usableFromInline
    enum Target: Sendable {
        case stream(Continuation)
        case observer(Observer)
    }

    // Live subscribers, in parallel arrays in subscription order: a send hands out
    // `continuations` and `observers` as they are (a copy-on-write share, no allocation),
    // which matters because every delegate callback sends.
    private var ids: [UInt64] = []
    @usableFromInline var continuations: [Continuation] = []
    private var observerIDs: [UInt64] = []
    @usableFromInline var observers: [Observer] = []
    /// Subscribers still being handed their replay, with what was sent meanwhile.
    @usableFromInline var catchingUp: [UInt64: (target: Target, backlog: [Element])] = [:]
    private var nextID: UInt64 = 0
    @usableFromInline var latest: Element?
    @usableFromInline var finished = false
    @usableFromInline let replaysLatest: Bool
    @usableFromInline var droppedCount = 0

    init(replaysLatest: Bool) {
        self.replaysLatest = replaysLatest
    }

    var subscriberCount: Int { ids.count + observerIDs.count + catchingUp.count }

    /// Every subscriber with a buffer: the live streams and those still catching up.
    var channels: [Continuation] {
        var all = continuations
        for entry in catchingUp.values {
            if case .stream(let channel) = entry.target { all.append(channel) }
        }
        return all
    }

    /// What a new subscriber gets.
    enum SubscribeAction {
        /// Registered under this id and live already: nothing to replay.
        case live(id: UInt64)
        /// Registered under this id: deliver `replay` to it, then ``catchUp(_:)`` until done.
        case replay(id: UInt64, Element)
        /// The broadcaster already ended: deliver the replay (if any), then finish a stream.
        case finished(replay: Element?)
    }

    /// Registers `target`, starting with `initial` (or the latest element, when replaying).
    mutating func subscribe(_ target: Target, initial: Element?) -> SubscribeAction {
        let replay = initial ?? (replaysLatest ? latest : nil)
        if finished { return .finished(replay: replay) }
        nextID += 1
        guard let replay else {
            makeLive(nextID, target)
            return .live(id: nextID)
        }
        catchingUp[nextID] = (target, [])
        return .replay(id: nextID, replay)
    }

    /// What a catching-up subscriber does next.
    enum CatchUpAction {
        /// Deliver these, then call ``catchUp(_:)`` again.
        case deliver([Element])
        /// Caught up: it is live now (or was removed meanwhile); nothing more to do.
        case done
        /// The broadcaster ended while it caught up: finish its stream, if it has one.
        case finish(Continuation?)
    }

    /// Hands over what was sent while `id`'s replay was being delivered, until nothing is left.
    mutating func catchUp(_ id: UInt64) -> CatchUpAction {
        guard let entry = catchingUp[id] else { return .done }
        if !entry.backlog.isEmpty {
            catchingUp[id] = (entry.target, [])
            return .deliver(entry.backlog)
        }
        catchingUp[id] = nil
        if finished {
            if case .stream(let continuation) = entry.target { return .finish(continuation) }
            return .done
        }
        makeLive(id, entry.target)
        return .done
    }

    private mutating func makeLive(_ id: UInt64, _ target: Target) {
        switch target {
        case .stream(let continuation):
            ids.append(id)
            continuations.append(continuation)
        case .observer(let observer):
            observerIDs.append(id)
            observers.append(observer)
        }
    }

    /// Removes a subscriber: its stream ended (cancelled, or dropped by its consumer), or its
    /// observation was cancelled.
    mutating func unsubscribe(_ id: UInt64) {
        if catchingUp.removeValue(forKey: id) != nil { return }
        if let index = ids.firstIndex(of: id) {
            ids.remove(at: index)
            continuations.remove(at: index)
        } else if let index = observerIDs.firstIndex(of: id) {
            observerIDs.remove(at: index)
            observers.remove(at: index)
        }
    }

    /// Returns the continuations to yield `element` to and the observers to call with it, each
    /// in subscription order; subscribers still catching up get it in their backlog.
    @inlinable
    mutating func send(_ element: Element) -> (continuations: [Continuation], observers: [Observer]) {
        guard !finished else { return ([], []) }
        if replaysLatest { latest = element }
        if !catchingUp.isEmpty {
            for id in catchingUp.keys { catchingUp[id]?.backlog.append(element) }
        }
        return (continuations, observers)
    }

    /// Forgets the latest element: a later subscriber starts with the next one.
    mutating func forgetLatest() {
        latest = nil
    }

    @inlinable
    mutating func recordDrops(_ count: Int) {
        droppedCount += count
    }

    /// Ends the broadcaster; returns the live continuations to finish. Subscribers still
    /// catching up finish once they have their backlog.
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
