import CCurl
import Executors
import Synchronization

/// Sends requests to one HTTP server, one at a time, over libcurl: each on a thread of its
/// own (libcurl blocks), never on Swift's cooperative pool. The connection is kept alive
/// between requests (one libcurl handle, reused).
public final class HTTPClient: Sendable {
    /// The server, with its password and TLS files.
    public let endpoint: HTTPEndpoint
    /// How long a connection may take to be made.
    public let connectTimeout: Duration
    /// How long a whole request may take.
    public let timeout: Duration
    private let library: LibCurl
    private let state = Mutex(State.idle(nil))

    private enum State {
        /// No request runs; the handle of the last one, kept for its connection.
        case idle(Handle?)
        /// A request runs on its thread, holding the handle.
        case busy
        case closed
    }

    /// A libcurl handle; used by one thread at a time (the state hands it out).
    final class Handle: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer

        init(pointer: UnsafeMutableRawPointer) {
            self.pointer = pointer
        }
    }

    /// Loads libcurl (once per process) and makes a client; nothing connects before ``send(_:)``.
    public init(endpoint: HTTPEndpoint, connectTimeout: Duration = .seconds(10), timeout: Duration = .seconds(30)) throws(HTTPError) {
        self.library = try LibCurl.shared.get()
        self.endpoint = endpoint
        self.connectTimeout = connectTimeout
        self.timeout = timeout
    }

    /// Sends `request` and waits for the server's answer, or why none came. Returns
    /// ``HTTPOutcome/cancelled`` at once when the client is closed or the task cancelled: the
    /// request may still reach the server, so a message it carried may arrive twice, never not
    /// at all.
    public func send(_ request: HTTPRequest) async -> HTTPOutcome {
        let taken = state.withLock { state -> Handle?? in
            switch state {
            case .idle(let handle):
                state = .busy
                return .some(handle)
            case .busy, .closed:
                return nil
            }
        }
        guard let existing = taken else { return .cancelled }
        let handle: Handle
        if let existing {
            handle = existing
        } else if let made = library.api.pointee.easy_init?() {
            handle = Handle(pointer: made)
        } else {
            state.withLock { if case .busy = $0 { $0 = .idle(nil) } }
            return .failed(HTTPFailure(kind: .other, code: -1, detail: "libcurl could not make a handle"))
        }
        let once = Once()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<HTTPOutcome, Never>) in
                once.set(continuation)
                let library = library
                let endpoint = endpoint
                let connectMilliseconds = Self.milliseconds(connectTimeout)
                let totalMilliseconds = Self.milliseconds(timeout)
                DetachedThread.startOrRun(name: "geotrack http") { [self] in
                    let outcome = Self.perform(request, endpoint: endpoint, handle: handle, library: library,
                                               connectTimeout: connectMilliseconds, timeout: totalMilliseconds)
                    // The handle goes back for the next request, or is freed if the client closed meanwhile.
                    let keep = state.withLock { state -> Bool in
                        guard case .busy = state else { return false }
                        state = .idle(handle)
                        return true
                    }
                    if !keep { library.api.pointee.easy_cleanup?(handle.pointer) }
                    once.resume(outcome)
                }
            }
        } onCancel: {
            once.resume(.cancelled)
        }
    }

    /// Ends the client: a request running is answered ``HTTPOutcome/cancelled`` by its waiter's
    /// cancellation, and its thread frees the handle when libcurl returns (within ``timeout``).
    public func close() {
        let handle = state.withLock { state -> Handle? in
            defer { state = .closed }
            if case .idle(let handle) = state { return handle }
            return nil
        }
        if let handle { library.api.pointee.easy_cleanup?(handle.pointer) }
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(clamping: seconds) &* 1000 &+ Int(attoseconds / 1_000_000_000_000_000)
    }

    /// Makes the request on this thread (it blocks).
    private static func perform(_ request: HTTPRequest, endpoint: HTTPEndpoint, handle: Handle, library: LibCurl,
                                connectTimeout: Int, timeout: Int) -> HTTPOutcome {
        var result = geotrack_http_result()
        let headers = request.headerLines
        let body = request.body
        body.withUnsafeBytes { bytes in
            request.url.withCString { url in
                headers.withCString { headerText in
                    withOptionalCString(endpoint.username) { username in
                        withOptionalCString(endpoint.password) { password in
                            withOptionalCString(endpoint.caFile) { caFile in
                                withOptionalCString(endpoint.certificateFile) { certificate in
                                    withOptionalCString(endpoint.keyFile) { key in
                                        var cRequest = geotrack_http_request(
                                            url: url, post: request.post, body: bytes.baseAddress, body_length: bytes.count,
                                            headers: headerText, username: username, password: password, ca_file: caFile,
                                            certificate_file: certificate, key_file: key,
                                            connect_timeout_ms: connectTimeout, timeout_ms: timeout)
                                        geotrack_http_perform(library.api, handle.pointer, &cRequest, &result)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        if result.code == GEOTRACK_CURLE_OK {
            return .answered(status: result.status)
        }
        let detail = withUnsafeBytes(of: result.error) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        return .failed(HTTPFailure(code: result.code, osErrno: result.os_errno,
                                   detail: detail.isEmpty ? library.describe(result.code) : detail))
    }

    /// Resumes a continuation once, from whichever comes first: the answer or a cancellation.
    private final class Once: Sendable {
        private let state = Mutex<(continuation: CheckedContinuation<HTTPOutcome, Never>?, early: HTTPOutcome?)>((nil, nil))

        func set(_ continuation: CheckedContinuation<HTTPOutcome, Never>) {
            let early = state.withLock { state -> HTTPOutcome? in
                if let early = state.early { return early }
                state.continuation = continuation
                return nil
            }
            if let early { continuation.resume(returning: early) }
        }

        func resume(_ outcome: HTTPOutcome) {
            let continuation = state.withLock { state -> CheckedContinuation<HTTPOutcome, Never>? in
                defer { state.continuation = nil }
                if state.continuation == nil, state.early == nil { state.early = outcome }
                return state.continuation
            }
            continuation?.resume(returning: outcome)
        }
    }
}

/// Runs `body` with `text` as a C string, or NULL.
private func withOptionalCString<R>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let text else { return body(nil) }
    return text.withCString { body($0) }
}
