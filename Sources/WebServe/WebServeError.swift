import NIOCore
#if canImport(Glibc)
import Glibc
#endif

/// Why the server could not start.
public struct WebServeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What failed.
    public enum Code: Sendable, Equatable {
        /// The address could not be bound (not local, not permitted…), for the reason the
        /// message gives.
        case cannotListen
        /// Something else listens on the address already.
        case addressInUse
        /// The host name does not resolve.
        case unknownHost
    }

    /// What failed.
    public let code: Code
    /// What failed, in words.
    public let message: String

    /// An error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }

    /// The error for a bind to `host`:`port` that failed with swift-nio's `error`, in words a
    /// person reads: the system's reason, not NIO's type and call.
    static func listening(host: String, port: Int, error: any Error) -> WebServeError {
        let address = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        if let failure = error as? IOError {
            let code: Code = failure.errnoCode == EADDRINUSE ? .addressInUse : .cannotListen
            return WebServeError(code, "cannot listen on \(address): \(String(cString: strerror(failure.errnoCode)).lowercased())")
        }
        if error is SocketAddressError || error is SocketAddressError.UnknownHost {
            return WebServeError(.unknownHost, "cannot listen on \(address): no such host")
        }
        return WebServeError(.cannotListen, "cannot listen on \(address): \(error)")
    }
}
