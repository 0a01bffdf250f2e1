/// Where an MQTT broker is and how to log in: what `mqtt://` and `mqtts://` URLs say, plus the
/// secrets that never appear in one.
public struct MQTTEndpoint: Sendable, Hashable {
    /// TLS settings for `mqtts://`.
    public struct TLS: Sendable, Hashable {
        /// The CA certificates (PEM) the broker's certificate must chain to.
        public var caFile: String
        /// A client certificate (PEM), for brokers that ask for one.
        public var certificateFile: String?
        /// The client certificate's key (PEM, unencrypted).
        public var keyFile: String?

        /// Creates TLS settings.
        public init(caFile: String, certificateFile: String? = nil, keyFile: String? = nil) {
            self.caFile = caFile
            self.certificateFile = certificateFile
            self.keyFile = keyFile
        }
    }

    /// The broker's host name or address.
    public var host: String
    /// The broker's port (1883 for MQTT, 8883 for MQTT over TLS by default).
    public var port: Int
    /// The user name, if the broker wants one.
    public var username: String?
    /// The password. Never printed: ``description`` leaves it out.
    public var password: String?
    /// TLS, or nil for plain TCP.
    public var tls: TLS?
    /// Seconds between keep-alive pings; a broker declares the client gone after 1.5 times this.
    public var keepAlive: Int

    /// Creates an endpoint.
    public init(host: String, port: Int, username: String? = nil, password: String? = nil, tls: TLS? = nil,
                keepAlive: Int = 30) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.tls = tls
        self.keepAlive = keepAlive
    }
}

extension MQTTEndpoint: CustomStringConvertible {
    /// `mqtt://user@host:port`, without the password.
    public var description: String {
        let user = username.map { "\($0)@" } ?? ""
        let bracketed = host.contains(":") ? "[\(host)]" : host
        return "\(tls == nil ? "mqtt" : "mqtts")://\(user)\(bracketed):\(port)"
    }
}
