import CCurl
#if canImport(Glibc)
import Glibc
#endif

/// What became of one request: the server's status, or why no answer came.
public enum HTTPOutcome: Sendable, Hashable {
    /// The server answered with this status (its body is not read).
    case answered(status: Int)
    /// No answer came.
    case failed(HTTPFailure)
    /// The client was closed, or the waiting task cancelled, before the answer came.
    case cancelled
}

/// Why a request got no answer, in the words ``reason`` gives a person.
public struct HTTPFailure: Sendable, Hashable {
    /// What kind of failure it was.
    public enum Kind: Sendable, Hashable {
        /// The host name did not resolve.
        case hostNotFound
        /// The host refused the connection (nothing listens on the port).
        case refused
        /// The host cannot be reached (no route).
        case unreachable
        /// No answer in time.
        case timedOut
        /// The TLS handshake failed (a CA that did not sign the server's certificate, a name it
        /// does not carry, a client certificate that cannot be used).
        case tls
        /// The request itself cannot be made (a URL libcurl refuses): no retry changes it.
        case malformed
        /// Anything else libcurl reports (a connection reset, a malformed answer).
        case other
    }

    /// What kind of failure it was.
    public var kind: Kind
    /// libcurl's code.
    public var code: Int32
    /// libcurl's words for it, for the log.
    public var detail: String

    /// Creates a failure.
    public init(kind: Kind, code: Int32, detail: String) {
        self.kind = kind
        self.code = code
        self.detail = detail
    }

    /// Classifies libcurl's code and the connect's errno.
    init(code: Int32, osErrno: Int, detail: String) {
        let kind: Kind
        switch code {
        case GEOTRACK_CURLE_COULDNT_RESOLVE_HOST, GEOTRACK_CURLE_COULDNT_RESOLVE_PROXY:
            kind = .hostNotFound
        case GEOTRACK_CURLE_COULDNT_CONNECT:
            switch Int32(osErrno) {
            case ECONNREFUSED: kind = .refused
            case EHOSTUNREACH, ENETUNREACH: kind = .unreachable
            case ETIMEDOUT: kind = .timedOut
            default: kind = .other
            }
        case GEOTRACK_CURLE_OPERATION_TIMEDOUT:
            kind = .timedOut
        case GEOTRACK_CURLE_URL_MALFORMAT:
            kind = .malformed
        case GEOTRACK_CURLE_SSL_CONNECT_ERROR, GEOTRACK_CURLE_PEER_FAILED_VERIFICATION, GEOTRACK_CURLE_SSL_CACERT_BADFILE,
             GEOTRACK_CURLE_SSL_CERTPROBLEM, GEOTRACK_CURLE_SSL_CIPHER, GEOTRACK_CURLE_SSL_ENGINE_NOTFOUND:
            kind = .tls
        default:
            kind = .other
        }
        self.init(kind: kind, code: code, detail: detail)
    }

    /// What happened and what to check, in the words the MQTT client uses for the same failure
    /// (`MQTTClient.failureReason(_:)`), with "server" for "broker".
    public var reason: String {
        switch kind {
        case .tls:
            "the TLS handshake failed: check that the CA file is the one that signed the server's certificate, and that the URL's host is a name the certificate carries"
        case .hostNotFound:
            "the server's host name was not found: check the URL, and the network"
        case .refused:
            "the server's host refused the connection: check the URL's port, and that the server runs"
        case .unreachable:
            "the server's host cannot be reached: check the network, and the URL's host"
        case .timedOut:
            "the server's host did not answer: check the URL, and any firewall between"
        case .malformed:
            "the request cannot be made: \(detail)"
        case .other:
            "\(detail) (libcurl error \(code))"
        }
    }

    /// The first part of ``reason``, what happened without what to check: the status line's words.
    public var summary: String {
        reason.firstRange(of: ": ").map { String(reason[..<$0.lowerBound]) } ?? reason
    }
}
