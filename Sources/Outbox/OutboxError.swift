/// A failure of the outbox's database, with what to do about it.
public struct OutboxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: Sendable, Hashable {
        /// The database file, or what SQLite said about it.
        case failure
        /// SQLite (libsqlite3) is not installed, or lacks a function GeoTrack calls.
        case libraryMissing
        /// Another process holds the claim on the destination's messages (``Outbox/claim(_:)``);
        /// ``holder`` is its process id when the system says it.
        case claimed
    }

    /// What went wrong.
    public var code: Code
    /// The database file.
    public var path: String
    /// One line saying what happened and what to do.
    public var message: String
    /// What SQLite (or the system) said, in its own words ("database or disk is full"), when
    /// it said something: for a caller that words the line itself.
    public var reason: String?
    /// For ``Code/claimed``: the process that holds the claim, when known.
    public var holder: Int32?

    /// Creates an error.
    public init(_ code: Code, path: String, message: String, reason: String? = nil, holder: Int32? = nil) {
        self.code = code
        self.path = path
        self.message = message
        self.reason = reason
        self.holder = holder
    }

    /// Creates an error about the database file (``Code/failure``).
    public init(path: String, message: String, reason: String? = nil) {
        self.init(.failure, path: path, message: message, reason: reason)
    }

    /// The folder the database file is in.
    public var folder: String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The message: what failed, and where.
    public var description: String { message }
}
