import Foundation
import GRDB
import Logging

/// A durable queue of messages for brokers and servers: every message is written here first,
/// and leaves only once its destination acknowledged it (``remove(_:)``).
///
/// One SQLite database in WAL mode; several processes may share it. A committed message
/// survives the process being killed (`kill -9`) and a clean reboot; a power cut can lose the
/// last moments (SQLite's `synchronous = NORMAL`), never corrupt the file.
///
/// The outbox is bounded per destination: past ``capacity`` the oldest messages are dropped
/// and counted (``OutboxSummary/dropped``), as OwnTracks' own queue does.
///
/// ``enqueue(_:)`` and the other synchronous calls block on the disk (well under a millisecond
/// in WAL mode); the `async` ones run on GRDB's own queue, off Swift's cooperative pool.
public final class Outbox: Sendable {
    /// The database file.
    public let path: String
    /// The most messages kept per destination.
    public let capacity: Int
    private let database: DatabasePool
    private let logger: Logger?

    /// Opens (or creates) the outbox at `path`. The folder must exist. A symbolic link is
    /// refused: the outbox never writes through one.
    public init(path: String, capacity: Int = 100_000, logger: Logger? = nil) throws(OutboxError) {
        self.path = path
        self.capacity = max(1, capacity)
        self.logger = logger
        var info = stat()
        if lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK {
            throw OutboxError(path: path, message: "the outbox \(path) is a symbolic link; remove it (geotrack never writes through one)")
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        do {
            database = try DatabasePool(path: path, configuration: configuration)
            try Self.migrate(database)
        } catch {
            throw OutboxError(path: path, message: "cannot open the outbox \(path): \(Self.reason(error)); check the folder is writable, or remove a damaged file")
        }
    }

    private static func migrate(_ database: DatabasePool) throws {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            // AUTOINCREMENT: ids are never reused, so "after id N" keeps meaning "newer than N".
            try db.execute(sql: """
                CREATE TABLE message (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    destination TEXT NOT NULL,
                    topic TEXT NOT NULL,
                    payload BLOB NOT NULL,
                    retain BOOLEAN NOT NULL,
                    created DOUBLE NOT NULL
                );
                CREATE INDEX message_destination ON message(destination, id);
                CREATE TABLE dropped (
                    destination TEXT PRIMARY KEY,
                    count INTEGER NOT NULL
                );
                """)
        }
        try migrator.migrate(database)
    }

    /// Writes a message and returns its id. Past ``capacity``, drops the destination's oldest.
    @discardableResult
    public func enqueue(_ message: OutboxMessage) throws(OutboxError) -> Int64 {
        try perform("queueing a message") { db in try Self.insert(message, capacity: capacity, db) }
    }

    /// Writes messages in one transaction and returns their ids, in order.
    @discardableResult
    public func enqueue(contentsOf messages: [OutboxMessage]) throws(OutboxError) -> [Int64] {
        try perform("queueing messages") { db in try messages.map { try Self.insert($0, capacity: capacity, db) } }
    }

    private static func insert(_ message: OutboxMessage, capacity: Int, _ db: Database) throws -> Int64 {
        try db.execute(sql: "INSERT INTO message (destination, topic, payload, retain, created) VALUES (?, ?, ?, ?, ?)",
                       arguments: [message.destination, message.topic, Data(message.payload), message.retain,
                                   message.created.timeIntervalSince1970])
        let id = db.lastInsertedRowID
        let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM message WHERE destination = ?",
                                     arguments: [message.destination]) ?? 0
        if count > capacity {
            let excess = count - capacity
            try db.execute(sql: """
                DELETE FROM message WHERE id IN
                    (SELECT id FROM message WHERE destination = ? ORDER BY id LIMIT ?)
                """, arguments: [message.destination, excess])
            try db.execute(sql: """
                INSERT INTO dropped (destination, count) VALUES (?, ?)
                ON CONFLICT(destination) DO UPDATE SET count = count + excluded.count
                """, arguments: [message.destination, excess])
        }
        return id
    }

    /// Up to `limit` messages for `destination` newer than `id`, oldest first.
    public func messages(for destination: String, after id: Int64 = 0, limit: Int) async throws(OutboxError) -> [OutboxMessage] {
        do {
            return try await database.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT id, destination, topic, payload, retain, created FROM message
                    WHERE destination = ? AND id > ? ORDER BY id LIMIT ?
                    """, arguments: [destination, id, limit]).map(Self.message)
            }
        } catch {
            throw OutboxError(path: path, message: "cannot read the outbox \(path): \(Self.reason(error))")
        }
    }

    /// Removes delivered messages.
    public func remove(_ ids: [Int64]) async throws(OutboxError) {
        guard !ids.isEmpty else { return }
        do {
            try await database.write { db in
                // In chunks: SQLite limits the number of parameters in one statement.
                for start in stride(from: 0, to: ids.count, by: 500) {
                    let chunk = Array(ids[start..<min(start + 500, ids.count)])
                    let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
                    try db.execute(sql: "DELETE FROM message WHERE id IN (\(marks))", arguments: StatementArguments(chunk))
                }
            }
        } catch {
            throw OutboxError(path: path, message: "cannot update the outbox \(path): \(Self.reason(error))")
        }
    }

    /// What waits, per destination (destinations that only dropped messages included).
    public func summaries() throws(OutboxError) -> [OutboxSummary] {
        try perform("reading the outbox", write: false) { db in
            var summaries: [String: OutboxSummary] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT destination, COUNT(*) AS count, MIN(created) AS oldest FROM message GROUP BY destination
                """) {
                let destination: String = row["destination"]
                let oldest: Double? = row["oldest"]
                summaries[destination] = OutboxSummary(destination: destination, count: row["count"],
                                                       oldest: oldest.map(Date.init(timeIntervalSince1970:)), dropped: 0)
            }
            for row in try Row.fetchAll(db, sql: "SELECT destination, count FROM dropped") {
                let destination: String = row["destination"]
                summaries[destination, default: OutboxSummary(destination: destination, count: 0, oldest: nil, dropped: 0)]
                    .dropped = row["count"]
            }
            return summaries.values.sorted { $0.destination < $1.destination }
        }
    }

    /// How many messages wait for `destination`, and when the oldest was queued.
    public func summary(for destination: String) throws(OutboxError) -> OutboxSummary {
        try summaries().first { $0.destination == destination }
            ?? OutboxSummary(destination: destination, count: 0, oldest: nil, dropped: 0)
    }

    /// Deletes what waits for `destination` (every destination when nil), and its dropped
    /// count; returns how many messages were deleted.
    @discardableResult
    public func clear(destination: String? = nil) throws(OutboxError) -> Int {
        try perform("clearing the outbox") { db in
            if let destination {
                try db.execute(sql: "DELETE FROM message WHERE destination = ?", arguments: [destination])
                let deleted = db.changesCount
                try db.execute(sql: "DELETE FROM dropped WHERE destination = ?", arguments: [destination])
                return deleted
            }
            try db.execute(sql: "DELETE FROM message")
            let deleted = db.changesCount
            try db.execute(sql: "DELETE FROM dropped")
            return deleted
        }
    }

    /// The size of the database files on disk, in bytes (the main file and its write-ahead log).
    public func sizeOnDisk() -> Int {
        [path, path + "-wal"].reduce(0) { total, file in
            var info = stat()
            return total + (stat(file, &info) == 0 ? Int(info.st_size) : 0)
        }
    }

    private func perform<T>(_ action: String, write: Bool = true, _ body: (Database) throws -> T) throws(OutboxError) -> T {
        do {
            return write ? try database.write(body) : try database.read(body)
        } catch {
            throw OutboxError(path: path, message: "\(action) in \(path) failed: \(Self.reason(error))")
        }
    }

    private static func message(_ row: Row) -> OutboxMessage {
        let payload: Data = row["payload"]
        let created: Double = row["created"]
        return OutboxMessage(id: row["id"], destination: row["destination"], topic: row["topic"],
                             payload: [UInt8](payload), retain: row["retain"],
                             created: Date(timeIntervalSince1970: created))
    }

    private static func reason(_ error: any Error) -> String {
        if let error = error as? DatabaseError {
            return error.message ?? "SQLite error \(error.resultCode.rawValue)"
        }
        return "\(error)"
    }
}
