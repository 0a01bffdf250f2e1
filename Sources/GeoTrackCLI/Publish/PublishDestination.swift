import MQTT
import OwnTracks

/// Where `--publish` sends: a broker URL, read and checked. Only MQTT for now.
package struct PublishDestination: Sendable, Hashable {
    /// The broker, without a password (it never comes from a URL) and, for `mqtts://`, with the
    /// system's CA certificates until ``endpoint(credentials:)`` says otherwise.
    package var endpoint: MQTTEndpoint

    /// The CA certificates `mqtts://` trusts when `--publish-ca` is not given (Debian's bundle).
    package static let systemCertificates = "/etc/ssl/certs/ca-certificates.crt"

    /// Reads `mqtt://[user@]host[:port]` or `mqtts://[user@]host[:port]`, with an optional
    /// trailing `/`. A password in the URL is refused: it would show in `ps` and shell history.
    /// - Parameter option: how errors name where the URL came from (`--publish`, or `fleet`).
    package init(url: String, option: String = "--publish") throws(CLIError) {
        let bad = { (why: String) in
            CLIError(.usage, "\(option) \(Terminal.safe(Self.redacted(url))): \(why)")
        }
        guard let schemeEnd = url.firstRange(of: "://") else {
            throw bad("not a URL; write mqtt://HOST[:PORT] or mqtts://HOST[:PORT]")
        }
        let scheme = url[..<schemeEnd.lowerBound].lowercased()
        let tls: Bool
        switch scheme {
        case "mqtt": tls = false
        case "mqtts": tls = true
        case "http", "https":
            throw bad("HTTP destinations are not supported yet; publish to an MQTT broker (mqtt:// or mqtts://)")
        default:
            throw bad("unknown scheme \(scheme); write mqtt://HOST[:PORT] or mqtts://HOST[:PORT]")
        }
        var rest = url[schemeEnd.upperBound...]
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard !rest.contains("/"), !rest.contains("?"), !rest.contains("#") else {
            throw bad("a broker URL has no path; the topic is set with --publish-user and --publish-device")
        }
        var username: String?
        if let at = rest.lastIndex(of: "@") {
            let user = String(rest[..<at])
            guard !user.contains(":") else {
                throw bad("no password in the URL (it would show in ps and shell history); use --publish-password-file or GEOTRACK_PUBLISH_PASSWORD")
            }
            guard !user.isEmpty, OwnTracksTopic.isValidPart(user) else { throw bad("the user name is empty or has control characters") }
            username = user
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
        var port = tls ? 8883 : 1883
        if let portText {
            guard let number = Int(portText), (1...65_535).contains(number) else {
                throw bad("the port must be a number from 1 to 65535")
            }
            port = number
        }
        endpoint = MQTTEndpoint(host: String(host), port: port, username: username,
                                tls: tls ? MQTTEndpoint.TLS(caFile: Self.systemCertificates) : nil)
    }

    /// The URL with any password in it replaced by `***`, for messages.
    static func redacted(_ url: String) -> String {
        guard let schemeEnd = url.firstRange(of: "://"), let at = url[schemeEnd.upperBound...].lastIndex(of: "@"),
              let colon = url[schemeEnd.upperBound..<at].firstIndex(of: ":") else { return url }
        return String(url[..<url.index(after: colon)]) + "***" + String(url[at...])
    }

    /// The endpoint with the password and TLS files the options give.
    package func endpoint(credentials: BrokerCredentials) -> MQTTEndpoint {
        var endpoint = endpoint
        endpoint.password = credentials.password
        if endpoint.tls != nil {
            endpoint.tls = MQTTEndpoint.TLS(caFile: credentials.caFile ?? Self.systemCertificates,
                                            certificateFile: credentials.certificateFile, keyFile: credentials.keyFile)
        }
        return endpoint
    }

    /// The outbox key for messages on `topic`: the broker's URL and the topic, no secrets.
    package func outboxKey(topic: OwnTracksTopic) -> String {
        "\(endpoint)/\(topic)"
    }

    /// Reads an outbox key back: the destination and the topic it was made for.
    package static func parse(outboxKey: String) -> (PublishDestination, OwnTracksTopic)? {
        guard let schemeEnd = outboxKey.firstRange(of: "://"),
              let slash = outboxKey[schemeEnd.upperBound...].firstIndex(of: "/"),
              let destination = try? PublishDestination(url: String(outboxKey[..<slash])),
              let topic = OwnTracksTopic(topic: String(outboxKey[outboxKey.index(after: slash)...])) else { return nil }
        return (destination, topic)
    }
}
