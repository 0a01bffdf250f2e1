/// The outbox sender's bookkeeping, as a state machine: each input returns what to do next,
/// and the sender performs it. Pure, so every path is tested without a broker.
///
/// Messages leave the outbox in id order, at most ``window`` awaiting their PUBACK at once.
/// While disconnected nothing new is handed to the client; what it already holds it sends
/// again after reconnecting (libmosquitto keeps its in-flight messages), so order holds and a
/// message is duplicated only when its PUBACK was lost (QoS 1's at-least-once).
struct SenderState {
    /// What the sender must do.
    enum Action: Equatable {
        /// Read up to `limit` messages newer than `id` and publish them.
        case fetch(after: Int64, limit: Int)
        /// Delete these delivered messages from the outbox.
        case remove([Int64])
    }

    /// The most messages awaiting a PUBACK.
    let window: Int
    private(set) var isConnected = false
    /// The id of the newest message handed to the client.
    private(set) var cursor: Int64 = 0
    /// Message ids the client gave → outbox ids.
    private(set) var inFlight: [Int32: Int64] = [:]
    /// Acknowledged, not yet deleted from the outbox.
    private(set) var delivered: [Int64] = []
    /// Whether the last read found nothing beyond the cursor (and nothing was queued since).
    private(set) var exhausted = false
    /// How many messages were acknowledged since the sender started.
    private(set) var acknowledgedCount = 0

    /// Deletions are batched: one transaction per this many acknowledgements (or when idle).
    static let removalBatch = 64

    /// - Parameter after: the cursor to start from: messages up to this id are never read
    ///   (held: queued before the run, when it may not send them).
    init(window: Int, after: Int64 = 0) {
        self.window = max(1, window)
        cursor = max(0, after)
    }

    /// Whether everything queued so far has been delivered and deleted.
    var isIdle: Bool { exhausted && inFlight.isEmpty && delivered.isEmpty }

    mutating func connected() -> [Action] {
        isConnected = true
        // A publish that failed while the connection was going left messages behind the cursor's reach.
        exhausted = false
        return fill()
    }

    mutating func disconnected() -> [Action] {
        isConnected = false
        return flushDelivered()
    }

    mutating func queued() -> [Action] {
        exhausted = false
        return fill()
    }

    /// After a fetch: the messages that were handed to the client, with the ids it gave them,
    /// and how many others were set aside as dead letters (gone from the outbox, never to be
    /// sent): they count as read, so a batch of them does not end the reading. `interrupted`:
    /// the client refused one (closed, out of memory), so what was read after it is still to
    /// send, and the outbox is not known to be exhausted (a wait for delivery goes on).
    mutating func published(_ messages: [(messageID: Int32, id: Int64)], requested: Int, setAside: Int = 0,
                            interrupted: Bool = false) -> [Action] {
        for message in messages {
            inFlight[message.messageID] = message.id
            cursor = max(cursor, message.id)
        }
        if !interrupted, messages.count + setAside < requested { exhausted = true }
        guard messages.isEmpty else { return [] }
        // Nothing in flight to refill on its acknowledgement: read on now past what was set aside.
        return flushDelivered() + (setAside > 0 ? fill() : [])
    }

    mutating func acknowledged(messageID: Int32) -> [Action] {
        guard let id = inFlight.removeValue(forKey: messageID) else { return [] }
        delivered.append(id)
        acknowledgedCount += 1
        var actions: [Action] = []
        if delivered.count >= Self.removalBatch || inFlight.isEmpty {
            actions += flushDelivered()
        }
        // Refill at half the window: fewer, larger reads.
        if inFlight.count <= window / 2 { actions += fill() }
        return actions
    }

    /// The deletions done: nothing to track.
    private mutating func flushDelivered() -> [Action] {
        guard !delivered.isEmpty else { return [] }
        defer { delivered = [] }
        return [.remove(delivered)]
    }

    private func fill() -> [Action] {
        guard isConnected, !exhausted, inFlight.count < window else { return [] }
        return [.fetch(after: cursor, limit: window - inFlight.count)]
    }
}
