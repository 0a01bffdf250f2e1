/// A failure to make an HTTP client, with a message a user can act on.
public struct HTTPError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: Sendable, Hashable {
        /// libcurl is not installed, or lacks a function GeoTrack calls.
        case libraryMissing
        /// libcurl could not make a handle (out of memory).
        case failure
    }

    /// What went wrong.
    public var code: Code
    /// One line saying what happened and what to do.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
