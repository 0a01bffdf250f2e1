import CMosquitto

/// A failure of the MQTT client, with a message a user can act on.
public struct MQTTError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: Sendable, Hashable {
        /// An option is not valid (a topic with wildcards to publish to, a bad TLS file), or a
        /// message can never be sent (a payload too large for MQTT).
        case invalidArgument
        /// The client is closed, or not connected where that is needed.
        case notConnected
        /// Out of memory, or another failure libmosquitto reports.
        case failure
        /// The TLS files could not be used.
        case tls
        /// libmosquitto is not installed, or lacks a function GeoTrack calls.
        case libraryMissing
    }

    /// What went wrong.
    public var code: Code
    /// One line saying what happened and what to do.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message: what failed, and where.
    public var description: String { message }

    /// The error for a libmosquitto return code, for `action` (e.g. "publishing").
    static func library(_ result: Int32, _ action: String, _ library: LibMosquitto) -> MQTTError {
        let text = library.describe(result)
        switch Int(result) {
        // What no retry can change: a bad topic, text MQTT refuses, a payload over MQTT's
        // 256 MB or over the broker's packet size.
        case Int(MOSQ_ERR_INVAL.rawValue), Int(MOSQ_ERR_MALFORMED_UTF8.rawValue), Int(MOSQ_ERR_PAYLOAD_SIZE.rawValue),
             Int(MOSQ_ERR_OVERSIZE_PACKET.rawValue):
            return MQTTError(.invalidArgument, "\(action): \(text)")
        case Int(MOSQ_ERR_NO_CONN.rawValue):
            return MQTTError(.notConnected, "\(action): not connected to the broker")
        default:
            return MQTTError(.failure, "\(action): \(text)")
        }
    }
}
