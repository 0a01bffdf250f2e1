/// Why the server could not start.
public struct WebServeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What failed.
    public enum Code: Sendable, Equatable {
        /// The address could not be bound (in use, not local, not permitted).
        case cannotListen
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
}
