/// The pure state of a ``BufferedChannel``: its buffer, its one waiting consumer, the producers
/// waiting for room, and whether it ended.
///
/// Every mutation returns the continuations to resume; the channel resumes them after the lock
/// is released, as swift-async-algorithms' channel storage does.
struct BufferedChannelStateMachine<Element: Sendable> {
    typealias Delivery = (element: Element, dropped: Int)
    typealias Consumer = UnsafeContinuation<Delivery?, Never>
    typealias RoomWaiter = UnsafeContinuation<Void, Never>

    private enum Phase {
        /// Elements may be sent.
        case open
        /// No more elements come; the buffered ones are still delivered.
        case finished
        /// The consumer went away (cancelled, or its iterator dropped): nothing more is kept.
        case terminated
    }

    let capacity: Int
    let highWater: Int
    private var phase = Phase.open
    private var buffer: [Element] = []
    /// Where the buffer starts in `buffer`: taking from the front only moves it, so a delivery
    /// does not shift every element left.
    private var head = 0
    /// Elements dropped since the last one the consumer took; handed over with the next one.
    private var droppedSinceDelivery = 0
    private(set) var droppedCount = 0
    private var consumer: Consumer?
    private var roomWaiters: [UInt64: RoomWaiter] = [:]
    private var nextWaiterID: UInt64 = 0
    /// Producers cancelled before they parked.
    private var cancelledWaiterIDs: Set<UInt64> = []
    private var onTermination: (@Sendable () -> Void)?

    init(capacity: Int, highWater: Int) {
        self.capacity = max(1, capacity)
        self.highWater = min(max(1, highWater), self.capacity)
    }

    var count: Int { buffer.count - head }

    /// Whether a producer that can wait should wait before producing more.
    var isAboveHighWater: Bool {
        if case .open = phase { return count >= highWater }
        return false
    }

    /// What ``send(_:)`` did.
    enum SendAction {
        /// Kept in the buffer (`droppedOldest`: the oldest was dropped to make room).
        case buffered(droppedOldest: Bool)
        /// Hand it straight to the waiting consumer.
        case resume(Consumer, Delivery)
        /// The channel ended: nothing was kept.
        case ignored
    }

    mutating func send(_ element: Element) -> SendAction {
        guard case .open = phase else { return .ignored }
        if let consumer {
            self.consumer = nil
            defer { droppedSinceDelivery = 0 }
            return .resume(consumer, (element, droppedSinceDelivery))
        }
        var dropped = false
        if count >= capacity {
            head += 1
            droppedSinceDelivery += 1
            droppedCount += 1
            dropped = true
        }
        buffer.append(element)
        return .buffered(droppedOldest: dropped)
    }

    /// What the consumer's ``next()`` gets.
    enum NextAction {
        /// This element, and the producers to wake now that there is room.
        case deliver(Delivery, [RoomWaiter])
        /// The end.
        case end
        /// Nothing yet: suspend.
        case wait
    }

    mutating func next() -> NextAction {
        if count > 0 {
            let element = buffer[head]
            head += 1
            if head == buffer.count {
                buffer.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 64 && head * 2 >= buffer.count {
                buffer.removeFirst(head)
                head = 0
            }
            let delivery = (element, droppedSinceDelivery)
            droppedSinceDelivery = 0
            return .deliver(delivery, count < highWater ? takeRoomWaiters() : [])
        }
        switch phase {
        case .open: return .wait
        case .finished, .terminated: return .end
        }
    }

    /// Parks the consumer, unless something arrived or the channel ended meanwhile.
    mutating func suspend(_ continuation: Consumer) -> Consumer? {
        if case .deliver(let delivery, let waiters) = next() {
            // Cannot happen while the consumer holds the only `next()`; kept for safety.
            for waiter in waiters { waiter.resume() }
            continuation.resume(returning: delivery)
            return nil
        }
        guard case .open = phase else { return continuation }
        // One consumer at a time: a second one waiting at once (a stream iterated twice) ends
        // instead of taking the first one's place and leaving it waiting for ever.
        guard consumer == nil else { return continuation }
        consumer = continuation
        return nil
    }

    /// What ending the channel wakes.
    struct EndAction {
        var consumer: Consumer?
        var waiters: [RoomWaiter]
        var onTermination: (@Sendable () -> Void)?
    }

    /// No more elements: the consumer gets the buffered ones, then the end.
    mutating func finish() -> EndAction {
        guard case .open = phase else { return EndAction(consumer: nil, waiters: [], onTermination: nil) }
        phase = .finished
        let waiting = consumer
        consumer = nil
        return EndAction(consumer: waiting, waiters: takeRoomWaiters(), onTermination: takeOnTermination())
    }

    /// The consumer went away: drop what is buffered and wake everyone.
    mutating func terminate() -> EndAction {
        if case .terminated = phase { return EndAction(consumer: nil, waiters: [], onTermination: nil) }
        phase = .terminated
        buffer.removeAll()
        head = 0
        let waiting = consumer
        consumer = nil
        return EndAction(consumer: waiting, waiters: takeRoomWaiters(), onTermination: takeOnTermination())
    }

    /// Parks a producer until the buffer is below its high-water mark; returns it when it need
    /// not wait, so the caller resumes it at once.
    mutating func waitForRoom(_ continuation: RoomWaiter, id: UInt64) -> RoomWaiter? {
        // Cancelled before it could park: do not park it at all.
        if cancelledWaiterIDs.remove(id) != nil { return continuation }
        guard isAboveHighWater else { return continuation }
        roomWaiters[id] = continuation
        return nil
    }

    mutating func makeWaiterID() -> UInt64 {
        nextWaiterID &+= 1
        return nextWaiterID
    }

    /// A waiting producer's task was cancelled.
    mutating func cancelRoomWaiter(_ id: UInt64) -> RoomWaiter? {
        if let waiter = roomWaiters.removeValue(forKey: id) { return waiter }
        // Not parked yet (or resumed already): remember, so a later park returns at once. A
        // producer is cancelled once, when its session ends, so this set stays tiny.
        cancelledWaiterIDs.insert(id)
        return nil
    }

    /// Records what to call when the channel ends; returns it when the channel already did.
    mutating func setOnTermination(_ handler: @escaping @Sendable () -> Void) -> (@Sendable () -> Void)? {
        guard case .open = phase else { return handler }
        onTermination = handler
        return nil
    }

    private mutating func takeRoomWaiters() -> [RoomWaiter] {
        guard !roomWaiters.isEmpty else { return [] }
        defer { roomWaiters.removeAll() }
        return Array(roomWaiters.values)
    }

    private mutating func takeOnTermination() -> (@Sendable () -> Void)? {
        defer { onTermination = nil }
        return onTermination
    }
}
