/// Where an HTTP server is and how to log in: what an `http://` or `https://` URL says, plus
/// the secrets that never appear in one.
public struct HTTPEndpoint: Sendable, Hashable {
    /// Whether to speak TLS (`https://`).
    public var secure: Bool
    /// The server's host name or address.
    public var host: String
    /// The server's port.
    public var port: Int
    /// The path requests go to, starting with `/`.
    public var path: String
    /// The user name for basic authentication, if the server wants one.
    public var username: String?
    /// The password. Never printed: ``description`` leaves it out.
    public var password: String?
    /// The CA certificates (PEM) the server's certificate must chain to; nil: the system's.
    public var caFile: String?
    /// A client certificate (PEM), for servers that ask for one.
    public var certificateFile: String?
    /// The client certificate's key (PEM, unencrypted).
    public var keyFile: String?

    /// Creates an endpoint.
    public init(secure: Bool, host: String, port: Int, path: String = "/", username: String? = nil,
                password: String? = nil, caFile: String? = nil, certificateFile: String? = nil, keyFile: String? = nil) {
        self.secure = secure
        self.host = host
        self.port = port
        self.path = path
        self.username = username
        self.password = password
        self.caFile = caFile
        self.certificateFile = certificateFile
        self.keyFile = keyFile
    }

    /// The URL requests go to, with `query` (already encoded) when not empty; no user, no password.
    public func url(query: String = "") -> String {
        let bracketed = host.contains(":") ? "[\(host)]" : host
        return "\(secure ? "https" : "http")://\(bracketed):\(port)\(path)\(query.isEmpty ? "" : "?" + query)"
    }

    /// `text` percent-encoded for a query's value: everything but RFC 3986's unreserved characters.
    public static func percentEncoded(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF".unicodeScalars)
                encoded.unicodeScalars.append("%")
                encoded.unicodeScalars.append(digits[Int(byte >> 4)])
                encoded.unicodeScalars.append(digits[Int(byte & 0xF)])
            }
        }
        return encoded
    }
}

extension HTTPEndpoint: CustomStringConvertible {
    /// `http://user@host:port/path`, without the password.
    public var description: String {
        let bracketed = host.contains(":") ? "[\(host)]" : host
        let user = username.map { "\($0)@" } ?? ""
        return "\(secure ? "https" : "http")://\(user)\(bracketed):\(port)\(path)"
    }
}
