import FoundationEssentials

/// A message waiting in the ``Outbox`` for its destination to acknowledge it.
public struct OutboxMessage: Sendable, Hashable {
    /// Its place in the outbox: messages leave in this order. Never reused.
    public var id: Int64
    /// Where it goes, as the destination's URL without secrets (`mqtt://host:1883`).
    public var destination: String
    /// The MQTT topic (or, for HTTP, the path) it is published to.
    public var topic: String
    /// What is published.
    public var payload: [UInt8]
    /// Whether the broker keeps it as the topic's last message.
    public var retain: Bool
    /// When it was queued.
    public var created: Date

    /// Creates a message; ``Outbox/enqueue(_:)`` gives it its id.
    public init(id: Int64 = 0, destination: String, topic: String, payload: [UInt8], retain: Bool, created: Date) {
        self.id = id
        self.destination = destination
        self.topic = topic
        self.payload = payload
        self.retain = retain
        self.created = created
    }
}

/// What waits for one destination.
public struct OutboxSummary: Sendable, Hashable {
    /// The destination.
    public var destination: String
    /// How many messages wait.
    public var count: Int
    /// When the oldest of them was queued, if any wait and the file holds a time a clock could
    /// give (nil for a damaged one).
    public var oldest: Date?
    /// How many were dropped, oldest first, because the outbox was full.
    public var dropped: Int

    /// How many were set aside as dead letters: no broker can ever take them (a topic MQTT
    /// refuses, a payload past its size).
    public var deadLetters: Int = 0
    /// Why the newest dead letter could not be delivered, when there is one.
    public var deadLetterReason: String?

    /// Creates a summary.
    public init(destination: String, count: Int, oldest: Date?, dropped: Int) {
        self.destination = destination
        self.count = count
        self.oldest = oldest
        self.dropped = dropped
    }
}
