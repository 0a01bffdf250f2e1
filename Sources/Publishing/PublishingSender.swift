import Outbox

/// What the publisher and `outbox flush` need of a destination's sender, whatever it speaks:
/// ``OutboxSender`` for MQTT, ``HTTPOutboxSender`` for HTTP.
public protocol PublishingSender: Actor {
    /// The outbox key of the messages this sender sends.
    nonisolated var destination: String { get }
    /// Says that messages were queued for this destination. Callable from any thread.
    nonisolated func queued()
    /// Ends ``run()`` once the inputs already given are handled.
    nonisolated func stop()
    /// Sends until stopped or cancelled.
    func run() async
    /// Waits until everything queued so far was delivered and deleted, or the destination
    /// refused the login; nil when the waiting task was cancelled.
    func waitUntilDelivered() async -> OutboxSender.DrainOutcome?
    /// Whether the destination took the last message or connection.
    var isConnected: Bool { get }
    /// How many messages the destination acknowledged since the sender started.
    var acknowledgedCount: Int { get }
    /// Why the destination refuses the login, for a person, while it does.
    var refusalDescription: String? { get }
    /// Why the last attempt failed (what happened, and what to check), for a person; nil once
    /// a message or connection went through.
    var failureDescription: String? { get }
    /// Why the outbox could not record what the destination took (a full disk, a file it cannot
    /// write), once that happened: the sender then sends nothing more, since what it sent could
    /// not be removed and would be sent again.
    var storageFailure: OutboxError? { get }
    /// How many messages the destination took that could not be removed from the outbox: the
    /// next run or flush sends them again.
    var unremovedCount: Int { get }
    /// How many messages were set aside as dead letters (never to be sent) since the sender
    /// started: what the destination can never take, such as Traccar's 400 for an unknown device.
    var setAsideCount: Int { get }
    /// Why the last one was set aside, for a person.
    var setAsideReason: String? { get }
}
