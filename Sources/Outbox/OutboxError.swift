/// A failure of the outbox's database, with what to do about it.
public struct OutboxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The database file.
    public var path: String
    /// One line saying what happened and what to do.
    public var message: String

    /// Creates an error.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { message }
}
