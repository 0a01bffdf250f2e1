/// A failure of the outbox's database, with what to do about it.
public struct OutboxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: Sendable, Hashable {
        /// The database file, or what SQLite said about it.
        case failure
        /// SQLite (libsqlite3) is not installed, or lacks a function GeoTrack calls.
        case libraryMissing
    }

    /// What went wrong.
    public var code: Code
    /// The database file.
    public var path: String
    /// One line saying what happened and what to do.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, path: String, message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    /// Creates an error about the database file (``Code/failure``).
    public init(path: String, message: String) {
        self.init(.failure, path: path, message: message)
    }

    public var description: String { message }
}
