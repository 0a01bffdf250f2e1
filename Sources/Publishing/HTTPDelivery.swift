import HTTP

/// What an HTTP answer (or its absence) means for the message sent: the one rule, pure, so
/// each status is tested without a server.
public enum HTTPDelivery: Sendable, Equatable {
    /// Taken (2xx): delete it from the outbox.
    case delivered
    /// No retry can deliver it (400, 413, 422 and the other 4xx about the request itself):
    /// set it aside as a dead letter with this reason; the messages behind it go on.
    case deadLetter(reason: String)
    /// The server refused the login (401, 403, 407): retried with the longest delay, and
    /// said, as a broker's refusal is.
    case refused(status: Int)
    /// Not now (5xx, 408, 429, a 3xx or 404 that says the URL is wrong, no answer at all):
    /// retried after a delay, for this reason (what happened, and what to check).
    case retry(reason: String)
    /// The client closed: the message stays in the outbox.
    case stopped

    /// The rule.
    public init(_ outcome: HTTPOutcome) {
        switch outcome {
        case .cancelled:
            self = .stopped
        case .failed(let failure) where failure.kind == .malformed:
            // A message whose query libcurl refuses (an outbox written by something else):
            // retried, it would hold up every message behind it.
            self = .deadLetter(reason: failure.reason)
        case .failed(let failure):
            self = .retry(reason: failure.reason)
        case .answered(let status):
            switch status {
            case 200..<300:
                self = .delivered
            case 401, 403, 407:
                self = .refused(status: status)
            // About the destination, not the message: every message would fail the same way,
            // and a corrected server takes them.
            case 404, 405:
                self = .retry(reason: Self.answerPrefix + "\(status) (\(Self.statusText(status))): check the URL's path")
            case 300..<400:
                self = .retry(reason: Self.answerPrefix + "\(status) (a redirect): check the URL, https:// for http://")
            case 408, 425, 429:
                self = .retry(reason: Self.answerPrefix + "\(status) (\(Self.statusText(status))): it will be sent again")
            case 400..<500:
                self = .deadLetter(reason: Self.answerPrefix + "\(status) (\(Self.statusText(status))): it cannot take this message")
            default:
                self = .retry(reason: Self.answerPrefix + "\(status) (\(Self.statusText(status))): check the server's log")
            }
        }
    }

    /// How every reason that comes from an answer begins: the server was reached and answered,
    /// so a caller does not say it could not connect.
    public static let answerPrefix = "the server answered "

    /// Whether `reason` is about an answer the server gave (a status), not about reaching it.
    public static func isAnswer(_ reason: String) -> Bool {
        reason.hasPrefix(answerPrefix)
    }

    /// The status's reason phrase, for the common ones.
    static func statusText(_ status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 407: "Proxy Authentication Required"
        case 408: "Request Timeout"
        case 410: "Gone"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 422: "Unprocessable Content"
        case 425: "Too Early"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "HTTP \(status)"
        }
    }

    /// What a refusal status means, for a person.
    public static func refusalReason(_ status: Int) -> String {
        Self.answerPrefix + "\(status) (\(statusText(status))): check the user in the URL and the password"
    }
}
