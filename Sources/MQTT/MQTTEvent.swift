/// What the broker connection reports, in the order libmosquitto's network thread saw it.
public enum MQTTEvent: Sendable, Hashable {
    /// The broker accepted the connection; `sessionPresent` when it kept this client id's
    /// session from before (its subscriptions, and what arrived for them meanwhile), which only
    /// a client made with a lasting session can have.
    case connected(sessionPresent: Bool)
    /// The broker refused the connection; the code is its CONNACK return code (4: bad user name
    /// or password, 5: not authorized).
    case refused(code: Int32)
    /// The connection was lost (or closed); the client reconnects by itself unless closed.
    case disconnected(code: Int32)
    /// No connection could be made, for a reason that waiting may not cure: the TLS handshake
    /// failed, or the broker's host name was not found. The client keeps retrying; the code is
    /// libmosquitto's (``MQTTClient/failureReason(_:)`` says it for a person).
    case failed(code: Int32)
    /// The broker acknowledged the QoS 1 message with this id (PUBACK).
    case acknowledged(messageID: Int32)
    /// The broker confirmed a subscription (SUBACK).
    case subscribed(messageID: Int32)
    /// A message arrived on a subscribed topic.
    case message(topic: String, payload: [UInt8], retained: Bool)
}
