import HTTP
import Publishing
import Testing

/// What each HTTP answer means for the message it carried, without a server.
struct HTTPDeliveryTests {
    @Test("2xx delivers; 401, 403 and 407 are a refused login; 4xx about the message are dead letters")
    func statuses() {
        for status in [200, 201, 202, 204] {
            #expect(HTTPDelivery(.answered(status: status)) == .delivered, "\(status)")
        }
        for status in [401, 403, 407] {
            #expect(HTTPDelivery(.answered(status: status)) == .refused(status: status), "\(status)")
        }
        for status in [400, 410, 413, 414, 415, 422] {
            guard case .deadLetter(let reason) = HTTPDelivery(.answered(status: status)) else {
                Issue.record("\(status) is not a dead letter")
                continue
            }
            #expect(reason.contains("\(status)"))
        }
    }

    @Test("what waiting or a corrected server may cure is retried: 5xx, 408, 429, a redirect, a path the server lacks, no answer")
    func retries() {
        for status in [500, 502, 503, 504, 408, 429, 301, 308, 404, 405] {
            guard case .retry(let reason) = HTTPDelivery(.answered(status: status)) else {
                Issue.record("\(status) is not retried")
                continue
            }
            #expect(reason.hasPrefix("the server answered \(status)"), "\(reason)")
        }
        let notFound = HTTPFailure(kind: .hostNotFound, code: 6, detail: "Could not resolve host: nohost.invalid")
        #expect(HTTPDelivery(.failed(notFound)) == .retry(reason: notFound.reason))
        #expect(HTTPDelivery(.cancelled) == .stopped)
        // A request libcurl cannot make never will be: set aside, so it holds up nothing.
        let malformed = HTTPFailure(kind: .malformed, code: 3, detail: "URL rejected: Malformed input to a URL function")
        #expect(HTTPDelivery(.failed(malformed)) == .deadLetter(reason: malformed.reason))
    }

    @Test("failures are named in the MQTT client's words, with 'server' for 'broker'")
    func words() {
        let expected: [(HTTPFailure.Kind, String)] = [
            (.hostNotFound, "the server's host name was not found"),
            (.refused, "the server's host refused the connection"),
            (.unreachable, "the server's host cannot be reached"),
            (.timedOut, "the server's host did not answer"),
            (.tls, "the TLS handshake failed"),
        ]
        for (kind, summary) in expected {
            let failure = HTTPFailure(kind: kind, code: 0, detail: "")
            #expect(failure.summary == summary)
            #expect(failure.reason.hasPrefix(summary + ": check"))
        }
    }
}
