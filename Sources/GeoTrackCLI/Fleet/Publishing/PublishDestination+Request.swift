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
                    headers += [("X-Limit-U", topic.user), ("X-Limit-D", topic.device)]
                }
                return HTTPRequest(url: endpoint.url(query: query), post: true, body: message.payload, headers: headers)
            }
        case .osmAnd(let endpoint):
            return { message in
                HTTPRequest(url: endpoint.url(query: String(decoding: message.payload, as: UTF8.self)), post: true)
            }
        }
    }
}
