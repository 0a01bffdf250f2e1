import MQTT

extension OutboxSender: PublishingSender {
    /// The broker's refusal, in words.
    public var refusalDescription: String? { refusalCode.map(Self.refusalReason) }
    /// Why the broker could not be reached, in `MQTTClient.failureReason(_:)`'s words.
    public var failureDescription: String? { failureCode.map(MQTTClient.failureReason) }
}
