import HTTP
import MQTT
import OwnTracks

/// Where `--publish` sends: an MQTT broker, an OwnTracks Recorder over HTTP, or a Traccar
/// server over its OsmAnd protocol; a URL, read and checked.
package struct PublishDestination: Sendable, Hashable {
    /// What the destination speaks, and where it is.
    package enum Target: Sendable, Hashable {
        /// `mqtt://`, `mqtts://`: OwnTracks' messages, published with QoS 1.
        case mqtt(MQTTEndpoint)
        /// `http://`, `https://`: OwnTracks' HTTP mode, each message POSTed as JSON.
        case ownTracksHTTP(HTTPEndpoint)
        /// `osmand://`, `osmand+https://`: Traccar's OsmAnd protocol, each location as a query.
        case osmAnd(HTTPEndpoint)
    }

    /// What the destination speaks, and where it is: without a password (it never comes from
    /// a URL) and with the system's CA certificates until ``target(credentials:)`` says otherwise.
    package var target: Target

    /// The CA certificates `mqtts://` trusts when `--publish-ca` is not given (Debian's bundle).
    package static let systemCertificates = "/etc/ssl/certs/ca-certificates.crt"

    /// The path OwnTracks' Recorder takes messages on, when an `http://` URL names none.
    package static let recorderPath = "/pub"

    private static let schemes = "mqtt://HOST[:PORT], mqtts://, http://HOST[:PORT]/pub, https://, osmand://HOST[:PORT] or osmand+https://"

    /// Reads `mqtt://[user@]host[:port]` or `mqtts://…` (an optional trailing `/`),
    /// `http://[user@]host[:port][/path]` or `https://…` (the Recorder's `/pub` by default),
    /// `osmand://[user@]host[:port][/path]` or `osmand+https://…`. A password in the URL is
    /// refused: it would show in `ps` and shell history.
    /// - Parameter option: how errors name where the URL came from (`--publish`, or `fleet`).
    package init(url: String, option: String = "--publish") throws(CLIError) {
        let bad = { (why: String) in
            CLIError(.usage, "\(option) \(Terminal.safe(Self.redacted(url))): \(why)")
        }
        // The fleet view only subscribes to a broker: its errors name only what it takes.
        let subscribing = option == "fleet"
        let schemes = subscribing ? "mqtt://HOST[:PORT] or mqtts://HOST[:PORT]" : Self.schemes
        guard let schemeEnd = url.firstRange(of: "://") else {
            throw bad("not a URL; write \(schemes)")
        }
        let scheme = url[..<schemeEnd.lowerBound].lowercased()
        let secure: Bool
        let defaultPort: Int
        switch scheme {
        case "mqtt": (secure, defaultPort) = (false, 1883)
        case "mqtts": (secure, defaultPort) = (true, 8883)
        case "http": (secure, defaultPort) = (false, 80)
        case "https", "osmand+https": (secure, defaultPort) = (true, 443)
        // Traccar's port for the OsmAnd protocol.
        case "osmand": (secure, defaultPort) = (false, 5055)
        default:
            throw bad("unknown scheme \(scheme); write \(schemes)")
        }
        let isMQTT = scheme.hasPrefix("mqtt")
        var rest = url[schemeEnd.upperBound...]
        var path = ""
        if isMQTT {
            if rest.hasSuffix("/") { rest = rest.dropLast() }
            guard !rest.contains("/"), !rest.contains("?"), !rest.contains("#") else {
                throw bad(subscribing ? "a broker URL has no path; the fleet view follows every device (owntracks/+/+)"
                                      : "a broker URL has no path; the topic is set with --publish-user and --publish-device")
            }
        } else {
            guard !rest.contains("?"), !rest.contains("#") else {
                throw bad("no query in the URL; the user and device are set with --publish-user and --publish-device")
            }
            if let slash = rest.firstIndex(of: "/") {
                path = String(rest[slash...])
                rest = rest[..<slash]
            }
            guard path.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value != 0x7F && !"\"<>\\^`{|}".unicodeScalars.contains($0) }) else {
                throw bad("the path has spaces or characters a URL cannot carry; percent-encode them")
            }
        }
        var username: String?
        if let at = rest.lastIndex(of: "@") {
            let user = String(rest[..<at])
            guard !user.contains(":") else {
                throw bad("no password in the URL (it would show in ps and shell history); use --publish-password-file or GEOTRACK_PUBLISH_PASSWORD")
            }
            // A URL's user is percent-encoded (RFC 3986): `me%40example.com` is the login me@example.com.
            guard let decoded = Self.percentDecoded(user) else {
                throw bad("the user name has a % that is not followed by two hex digits of UTF-8; write %25 for a %")
            }
            guard !decoded.isEmpty, OwnTracksTopic.isValidPart(decoded) else { throw bad("the user name is empty or has control characters") }
            username = decoded
            rest = rest[rest.index(after: at)...]
        }
        var host = Substring(rest)
        var portText: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { throw bad("an IPv6 address needs its closing ]") }
            let after = host[host.index(after: close)...]
            portText = after.hasPrefix(":") ? after.dropFirst() : nil
            guard after.isEmpty || after.hasPrefix(":") else { throw bad("unexpected text after the address") }
            host = host[host.index(after: host.startIndex)..<close]
        } else if let colon = host.lastIndex(of: ":") {
            portText = host[host.index(after: colon)...]
            host = host[..<colon]
        }
        guard !host.isEmpty, host.allSatisfy({ $0.isLetter || $0.isNumber || "-._:".contains($0) }), host.allSatisfy(\.isASCII) else {
            throw bad("the host name is empty or not a host name")
        }
        var port = defaultPort
        if let portText {
            guard let number = Int(portText), (1...65_535).contains(number) else {
                throw bad("the port must be a number from 1 to 65535")
            }
            port = number
        }
        switch scheme {
        case "mqtt", "mqtts":
            target = .mqtt(MQTTEndpoint(host: String(host), port: port, username: username,
                                        tls: secure ? MQTTEndpoint.TLS(caFile: Self.systemCertificates) : nil))
        case "http", "https":
            target = .ownTracksHTTP(HTTPEndpoint(secure: secure, host: String(host), port: port,
                                                 path: path.isEmpty || path == "/" ? Self.recorderPath : path, username: username))
        default:
            target = .osmAnd(HTTPEndpoint(secure: secure, host: String(host), port: port, path: path.isEmpty ? "/" : path,
                                          username: username))
        }
    }

    /// `text` with each `%XX` replaced by its byte; nil when a `%` is not followed by two hex
    /// digits or the bytes are not UTF-8.
    static func percentDecoded(_ text: String) -> String? {
        guard text.contains("%") else { return text }
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The URL with any password in it replaced by `***`, for messages.
    static func redacted(_ url: String) -> String {
        guard let schemeEnd = url.firstRange(of: "://"), let at = url[schemeEnd.upperBound...].lastIndex(of: "@"),
              let colon = url[schemeEnd.upperBound..<at].firstIndex(of: ":") else { return url }
        return String(url[..<url.index(after: colon)]) + "***" + String(url[at...])
    }

    /// The target with the password and TLS files the options give.
    package func target(credentials: BrokerCredentials) -> Target {
        switch target {
        case .mqtt(var endpoint):
            endpoint.password = credentials.password
            if endpoint.tls != nil {
                endpoint.tls = MQTTEndpoint.TLS(caFile: credentials.caFile ?? Self.systemCertificates,
                                                certificateFile: credentials.certificateFile, keyFile: credentials.keyFile)
            }
            return .mqtt(endpoint)
        case .ownTracksHTTP(let endpoint):
            return .ownTracksHTTP(Self.http(endpoint, credentials))
        case .osmAnd(let endpoint):
            return .osmAnd(Self.http(endpoint, credentials))
        }
    }

    private static func http(_ endpoint: HTTPEndpoint, _ credentials: BrokerCredentials) -> HTTPEndpoint {
        var endpoint = endpoint
        endpoint.password = credentials.password
        if endpoint.secure {
            endpoint.caFile = credentials.caFile
            endpoint.certificateFile = credentials.certificateFile
            endpoint.keyFile = credentials.keyFile
        }
        return endpoint
    }

    /// The broker with the password and TLS files the options give; nil for an HTTP destination.
    package func endpoint(credentials: BrokerCredentials) -> MQTTEndpoint? {
        if case .mqtt(let endpoint) = target(credentials: credentials) { endpoint } else { nil }
    }

    /// The URL, without a password: `mqtt://host:1883`, `http://host:8083/pub`, `osmand://host:5055/`.
    package var description: String {
        switch target {
        case .mqtt(let endpoint): endpoint.description
        case .ownTracksHTTP(let endpoint): endpoint.description
        case .osmAnd(let endpoint): (endpoint.secure ? "osmand+https" : "osmand") + endpoint.description.drop { $0 != ":" }
        }
    }

    /// The user the URL names (`mqtt://USER@host`), whom a password logs in.
    package var username: String? {
        switch target {
        case .mqtt(let endpoint): endpoint.username
        case .ownTracksHTTP(let endpoint), .osmAnd(let endpoint): endpoint.username
        }
    }

    /// Whether the connection is TLS (`mqtts://`, `https://`, `osmand+https://`): the only ones
    /// the CA, certificate and key files are for.
    package var isSecure: Bool {
        switch target {
        case .mqtt(let endpoint): endpoint.tls != nil
        case .ownTracksHTTP(let endpoint), .osmAnd(let endpoint): endpoint.secure
        }
    }

    /// Whether messages go over HTTP.
    package var isHTTP: Bool {
        if case .mqtt = target { false } else { true }
    }

    /// The outbox key for messages on `topic`, no secrets: the broker's URL and the topic for
    /// MQTT (`mqtt://host:1883/owntracks/ann/boat`), the URL with the query that names the
    /// device for HTTP (`http://host:8083/pub?u=ann&d=boat`, `osmand://host:5055/?id=boat`).
    package func outboxKey(topic: OwnTracksTopic) -> String {
        switch target {
        case .mqtt:
            "\(description)/\(topic)"
        case .ownTracksHTTP:
            "\(description)?u=\(HTTPEndpoint.percentEncoded(topic.user))&d=\(HTTPEndpoint.percentEncoded(topic.device))"
        case .osmAnd:
            "\(description)?id=\(HTTPEndpoint.percentEncoded(topic.device))"
        }
    }

    /// Reads an outbox key back: the destination it was made for.
    package static func parse(outboxKey: String) -> PublishDestination? {
        guard let schemeEnd = outboxKey.firstRange(of: "://") else { return nil }
        let end: String.Index?
        if outboxKey[..<schemeEnd.lowerBound].lowercased().hasPrefix("mqtt") {
            end = outboxKey[schemeEnd.upperBound...].firstIndex(of: "/")
            guard let end, OwnTracksTopic(topic: String(outboxKey[outboxKey.index(after: end)...])) != nil else { return nil }
        } else {
            end = outboxKey[schemeEnd.upperBound...].firstIndex(of: "?")
        }
        guard let end else { return nil }
        return try? PublishDestination(url: String(outboxKey[..<end]))
    }
}
