import HTTP
import Outbox
import OwnTracks

extension PublishDestination {
    /// The request that carries an outbox message to an HTTP destination, or nil for MQTT.
    ///
    /// OwnTracks' HTTP mode: the message's JSON, POSTed, with the user and device the Recorder
    /// reads both as the query (`?u=USER&d=DEVICE`) and as the headers that override it
    /// (`X-Limit-U`, `X-Limit-D`), taken from the topic the message was queued for. OsmAnd:
    /// the message is the query itself (``OsmAndQuery``), POSTed with no body.
    ///
    /// A header value must be visible ASCII (RFC 9110), and a name may be any UTF-8: a header is
    /// sent only for a name that fits as it is. For another (`jörg`), the percent-encoded query
    /// carries it whole, which the Recorder reads when the header is absent; escaping it in the
    /// header instead would store the escaped text as the name.
    package static func request(for target: Target) -> (@Sendable (OutboxMessage) -> HTTPRequest)? {
        switch target {
        case .mqtt:
            return nil
        case .ownTracksHTTP(let endpoint):
            return { message in
                var headers: [(name: String, value: String)] = [("Content-Type", "application/json")]
                var query = ""
                if let topic = OwnTracksTopic(topic: message.topic) {
                    query = "u=\(HTTPEndpoint.percentEncoded(topic.user))&d=\(HTTPEndpoint.percentEncoded(topic.device))"
                    for (name, value) in [("X-Limit-U", topic.user), ("X-Limit-D", topic.device)] where isHeaderValue(value) {
                        headers.append((name, value))
                    }
                }
                return HTTPRequest(url: endpoint.url(query: query), post: true, body: message.payload, headers: headers)
            }
        case .osmAnd(let endpoint):
            return { message in
                HTTPRequest(url: endpoint.url(query: String(decoding: message.payload, as: UTF8.self)), post: true)
            }
        }
    }

    /// Whether `text` can be a header value as it is: printable ASCII, without the spaces at its
    /// ends that a server would strip.
    static func isHeaderValue(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { (0x20...0x7E).contains($0) }
            && text.utf8.first != 0x20 && text.utf8.last != 0x20
    }
}
