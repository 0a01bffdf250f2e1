import CSQLite
import FoundationEssentials
import Logging
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

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
/// in WAL mode); the `async` ones run on a thread the outbox starts for them, off Swift's
/// cooperative pool. All of them share one connection, used by one thread at a time.
///
/// The database is closed, and the thread ends, when the outbox is released, or before with
/// ``close()``.
public final class Outbox: Sendable {
    /// The database file.
    public let path: String
    /// The most messages kept per destination.
    public let capacity: Int
    private let connection: Mutex<SQLiteConnection>
    /// How many messages wait per destination, as far as this connection knows; used only under
    /// the connection's lock.
    private let kept = Mutex(KeptCounts())
    /// The destinations this outbox has claimed, and the lock file that says so to other processes.
    private let claims = Mutex(ClaimTable())
    /// Runs the `async` calls (internal for the tests).
    let worker: OutboxWorker
    private let logger: Logger?

    /// The tables of the GRDB version's migration "v1", verbatim but for `IF NOT EXISTS`: files it
    /// made open unchanged, and new files get the same, with GRDB's record that "v1" ran, so that
    /// an older geotrack (a downgrade) opens them too instead of failing to create `message`.
    /// AUTOINCREMENT: ids are never reused, so "after id N" keeps meaning "newer than N".
    private static let schema = """
        CREATE TABLE IF NOT EXISTS message (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            destination TEXT NOT NULL,
            topic TEXT NOT NULL,
            payload BLOB NOT NULL,
            retain BOOLEAN NOT NULL,
            created DOUBLE NOT NULL
        );
        CREATE INDEX IF NOT EXISTS message_destination ON message(destination, id);
        CREATE TABLE IF NOT EXISTS dropped (
            destination TEXT PRIMARY KEY,
            count INTEGER NOT NULL
        );
        CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
        INSERT OR IGNORE INTO grdb_migrations (identifier) VALUES ('v1');
        """

    /// Opens (or creates) the outbox at `path`. The folder must exist. A symbolic link is
    /// refused: the outbox never writes through one.
    ///
    /// The first outbox a process opens loads SQLite (libsqlite3); when it is not installed,
    /// this throws an error with ``OutboxError/Code/libraryMissing`` that says what to install.
    public convenience init(path: String, capacity: Int = 100_000, logger: Logger? = nil) throws(OutboxError) {
        try self.init(path: path, capacity: capacity, logger: logger, library: LibSQLite.shared)
    }

    /// Opens the outbox at `path` with `library`, or fails with why it could not be loaded (the
    /// tests give a library that is not there).
    init(path: String, capacity: Int = 100_000, logger: Logger? = nil,
         library: Result<LibSQLite, SQLiteFailure>) throws(OutboxError) {
        self.path = path
        self.capacity = max(1, capacity)
        self.logger = logger
        let sqlite: LibSQLite
        switch library {
        case .success(let loaded): sqlite = loaded
        case .failure(let error):
            throw OutboxError(.libraryMissing, path: path, message: "cannot open the outbox \(path): \(error.reason)")
        }
        var info = stat()
        if lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK {
            throw OutboxError(path: path, message: "the outbox \(path) is a symbolic link; remove it (geotrack never writes through one)")
        }
        try Self.restrictMode(path)
        let connection: SQLiteConnection
        do throws(SQLiteFailure) {
            // NOFOLLOW: a link put in place between the check above and the open is refused too.
            // FULLMUTEX on top of our own lock: SQLite's is uncontended, and keeps the handle safe
            // should a call ever be made outside ours.
            connection = try SQLiteConnection(
                path: path,
                flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_FULLMUTEX,
                library: sqlite
            )
            try Self.setUp(connection)
        } catch {
            // Only a file SQLite cannot read as a database is worth moving aside: any other failure
            // (a folder that is not writable, a lock) leaves the queued positions in it intact.
            let advice = error.isDamagedFile ? "it is not an outbox SQLite can read: move it aside to start a new one"
                : "check that the folder and the file are writable"
            throw OutboxError(path: path, message: "cannot open the outbox \(path): \(error.reason); \(advice)")
        }
        self.connection = Mutex(connection)
        worker = OutboxWorker(name: "geotrack-outbox")
    }

    deinit {
        close()
    }

    /// Makes the outbox file readable and writable by its owner only (0600), creating it so
    /// when missing: it holds where the user was. SQLite creates a file 0644 (less the umask),
    /// and makes its log and shared-memory files with the database's mode, so the mode set here
    /// is theirs too. A file an older geotrack made 0644 is narrowed, with its log files.
    private static func restrictMode(_ path: String) throws(OutboxError) {
        for (file, create) in [(path, true), (path + "-wal", false), (path + "-shm", false)] {
            let descriptor = Glibc.open(file, O_RDWR | O_NOFOLLOW | O_CLOEXEC | (create ? O_CREAT : 0), 0o600)
            guard descriptor >= 0 else {
                let error = errno
                if !create, error == ENOENT { continue }
                throw OutboxError(path: path, message: "cannot open the outbox \(file): \(String(cString: strerror(error))); check the folder is writable, and that it is no symbolic link")
            }
            defer { Glibc.close(descriptor) }
            var info = stat()
            guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
                throw OutboxError(path: path, message: "the outbox \(file) is not a regular file; remove it")
            }
            if info.st_mode & 0o077 != 0, fchmod(descriptor, 0o600) != 0 {
                let error = errno
                throw OutboxError(path: path, message: "cannot make the outbox \(file) private (mode 0600): \(String(cString: strerror(error))); fix its owner or mode")
            }
        }
    }

    /// The size the write-ahead log is cut back to after each checkpoint, in bytes.
    static let logLimit = 1 << 20

    private static func setUp(_ connection: SQLiteConnection) throws(SQLiteFailure) {
        // Other processes (a second geotrack, `geotrack outbox`) may hold the file: wait for
        // their locks rather than fail.
        try connection.setBusyTimeout(milliseconds: 10_000)
        // A new file gives back the pages its delivered messages leave (``reclaimSpace(_:)``):
        // SQLite can only be told so before the file has a table, and before the write-ahead log
        // is set up, which writes the file's header.
        if try connection.integer("SELECT COUNT(*) FROM sqlite_master") == 0 {
            try connection.execute("PRAGMA auto_vacuum = INCREMENTAL")
        }
        let mode = try connection.text("PRAGMA journal_mode = WAL") ?? "unknown"
        guard mode.lowercased() == "wal" else {
            throw SQLiteFailure(reason: "it cannot use a write-ahead log (journal mode \(mode))")
        }
        try connection.execute("PRAGMA synchronous = NORMAL")
        // The write-ahead log is folded into the database every 256 pages (1 MiB, not SQLite's
        // 4 MiB) and cut back to 1 MiB after, instead of keeping its largest size for good: a
        // tracker on a Raspberry Pi's SD card, or a small partition, holds no more than it needs.
        try connection.execute("PRAGMA wal_autocheckpoint = 256")
        try connection.execute("PRAGMA journal_size_limit = \(Self.logLimit)")
        // Creating takes the write lock; an outbox already made only needs a read to know it.
        let existing = try connection.integer("""
            SELECT COUNT(*) FROM sqlite_master WHERE name IN ('message', 'message_destination', 'dropped', 'grdb_migrations')
            """)
        if (existing ?? 0) < 4 {
            try connection.transaction(immediate: true) { () throws(SQLiteFailure) in try connection.execute(schema) }
        }
    }

    /// The free pages past which a file gives space back to the file system: 1 MiB of 4 KiB
    /// pages, so that a queue that fills and empties by the second does not move pages for
    /// each message.
    static let reclaimThreshold = 256

    /// Gives back to the file system the pages deleted messages left free, once there are
    /// ``reclaimThreshold`` of them, so that a file that grew during a long outage (a day at
    /// one fix a second is tens of megabytes) shrinks once they are delivered or cleared.
    /// The write-ahead log carries the change: the file itself is cut at the next checkpoint.
    /// A file that predates this (SQLite's default, no auto-vacuum) keeps its size; `clear`
    /// converts it (``convertToIncrementalVacuum(_:)``).
    private static func reclaimSpace(_ connection: SQLiteConnection, threshold: Int = reclaimThreshold) throws(SQLiteFailure) {
        guard try connection.integer("PRAGMA auto_vacuum") == 2,
              try (connection.integer("PRAGMA freelist_count") ?? 0) >= Int64(threshold) else { return }
        try connection.execute("PRAGMA incremental_vacuum")
    }

    /// Rewrites a file made without auto-vacuum (by an older geotrack, or the GRDB version) so
    /// that it shrinks from now on, and shrinks it now. Only `clear` does it, a command a user
    /// runs, since it copies what is left. It fails, leaving the file whole and as large as it
    /// was, while another connection reads it; nothing is lost, so that is not an error.
    private static func convertToIncrementalVacuum(_ connection: SQLiteConnection) {
        do {
            guard try connection.integer("PRAGMA auto_vacuum") == 0 else { return }
            try connection.execute("PRAGMA auto_vacuum = INCREMENTAL")
            try connection.execute("VACUUM")
        } catch {
            return
        }
    }

    /// Closes the database and lets the outbox's thread end; every later call throws. Releasing
    /// the outbox does the same, so this is only needed to close it earlier. Waits for a call
    /// under way on another thread to finish.
    public func close() {
        connection.withLock { $0.close() }
        worker.stop()
        claims.withLock { table in
            if table.descriptor >= 0 { _ = Glibc.close(table.descriptor) }
            table.descriptor = -1
            table.destinations.removeAll()
        }
    }

    /// Claims `destination`'s messages for this process: the one that sends them. Fails with
    /// ``OutboxError/Code/claimed`` while another process (or this outbox) holds the claim.
    ///
    /// The claim is a lock (`fcntl`'s, which says who holds it) on one byte of `<path>-lock`,
    /// a file beside the database, mode 0600, never followed when it is a symbolic link. Such
    /// locks belong to the process and file: one process should open one outbox per file, as
    /// closing a second would drop the first's claims.
    public func claim(_ destination: String) throws(OutboxError) -> OutboxClaim {
        let path = path
        let result: Result<Void, OutboxError> = claims.withLock { table in
            if table.destinations.contains(destination) {
                return .failure(OutboxError(.claimed, path: path, message: "this process already sends \(destination) from the outbox \(path)",
                                            holder: getpid()))
            }
            if table.descriptor < 0 {
                let descriptor = Glibc.open(path + "-lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
                guard descriptor >= 0 else {
                    let reason = String(cString: strerror(errno))
                    return .failure(OutboxError(path: path, message: "cannot open the outbox's lock file \(path)-lock: \(reason)", reason: reason))
                }
                table.descriptor = descriptor
            }
            switch table.lock(destination, Int32(F_WRLCK)) {
            case .done:
                break
            case .held(let holder):
                return .failure(OutboxError(.claimed, path: path,
                                            message: "another process\(holder.map { " (\($0))" } ?? "") sends \(destination) from the outbox \(path)",
                                            holder: holder))
            case .failed(let error):
                let reason = String(cString: strerror(error))
                return .failure(OutboxError(path: path, message: "cannot lock the outbox's lock file \(path)-lock: \(reason)", reason: reason))
            }
            table.destinations.insert(destination)
            return .success(())
        }
        try result.get()
        return OutboxClaim(destination: destination, outbox: self)
    }

    /// Gives up the claim on `destination` (``OutboxClaim/release()``).
    func releaseClaim(_ destination: String) {
        claims.withLock { table in
            guard table.destinations.remove(destination) != nil, table.descriptor >= 0 else { return }
            _ = table.lock(destination, Int32(F_UNLCK))
        }
    }

    /// Writes a message and returns its id. Past ``capacity``, drops the destination's oldest.
    @discardableResult
    public func enqueue(_ message: OutboxMessage) throws(OutboxError) -> Int64 {
        // One message gives one id; the fallback is never taken.
        try insert([message], "queueing a message").first ?? 0
    }

    /// Writes messages in one transaction and returns their ids, in order.
    @discardableResult
    public func enqueue(contentsOf messages: [OutboxMessage]) throws(OutboxError) -> [Int64] {
        try insert(messages, "queueing messages")
    }

    private func insert(_ messages: [OutboxMessage], _ action: String) throws(OutboxError) -> [Int64] {
        let capacity = capacity
        return try perform(action) { connection throws(SQLiteFailure) in
            try keepingCounts(connection) { counts throws(SQLiteFailure) in
                let statements = try InsertStatements(connection)
                var ids: [Int64] = []
                ids.reserveCapacity(messages.count)
                for message in messages {
                    ids.append(try statements.insert(message, capacity: capacity, counts: &counts, connection))
                }
                return ids
            }
        }
    }

    /// Up to `limit` messages for `destination` newer than `id`, oldest first.
    public func messages(for destination: String, after id: Int64 = 0, limit: Int) async throws(OutboxError) -> [OutboxMessage] {
        let result = await onWorker { connection throws(SQLiteFailure) in
            let select = try connection.prepare("""
                SELECT id, destination, topic, payload, retain, created FROM message
                WHERE destination = ? AND id > ? ORDER BY id LIMIT ?
                """)
            try select.bind([.text(destination), .integer(id), .integer(Int64(limit))])
            var messages: [OutboxMessage] = []
            while try select.step() {
                messages.append(OutboxMessage(id: select.integer(at: 0), destination: select.text(at: 1),
                                              topic: select.text(at: 2), payload: select.blob(at: 3),
                                              retain: select.integer(at: 4) != 0,
                                              created: Date(timeIntervalSince1970: select.real(at: 5) ?? 0)))
            }
            return messages
        }
        do {
            return try result.get()
        } catch {
            throw OutboxError(path: path, message: "cannot read the outbox \(path): \(error.reason)")
        }
    }

    /// Removes delivered messages.
    public func remove(_ ids: [Int64]) async throws(OutboxError) {
        guard !ids.isEmpty else { return }
        let result = await onWorker { connection throws(SQLiteFailure) in
            try self.keepingCounts(connection) { counts throws(SQLiteFailure) in
                // In chunks: SQLite limits the number of parameters in one statement.
                for start in stride(from: 0, to: ids.count, by: 500) {
                    let chunk = ids[start..<min(start + 500, ids.count)]
                    let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
                    // What leaves, per destination, read by id (the primary key): the kept
                    // counts go down by as much, and no destination is counted again.
                    let leaving = try connection.prepare(
                        "SELECT destination, COUNT(*) FROM message WHERE id IN (\(marks)) GROUP BY destination")
                    try leaving.bind(chunk.map(SQLiteValue.integer))
                    while try leaving.step() {
                        let destination = leaving.text(at: 0)
                        if let known = counts[destination] { counts[destination] = max(0, known - Int(leaving.integer(at: 1))) }
                    }
                    let delete = try connection.prepare("DELETE FROM message WHERE id IN (\(marks))")
                    try delete.bind(chunk.map(SQLiteValue.integer))
                    try delete.run()
                }
            }
            try Self.reclaimSpace(connection)
        }
        do {
            try result.get()
        } catch {
            throw OutboxError(path: path, message: "cannot update the outbox \(path): \(error.reason)", reason: error.reason)
        }
    }

    /// Where messages that can never be delivered go, made when the first one is set aside: a
    /// file without one keeps exactly the GRDB version's tables.
    private static let deadLetterSchema = """
        CREATE TABLE IF NOT EXISTS dead_letter (
            id INTEGER PRIMARY KEY,
            destination TEXT NOT NULL,
            topic TEXT,
            payload BLOB,
            retain BOOLEAN,
            created DOUBLE,
            reason TEXT NOT NULL
        )
        """

    /// Moves the message `id` out of the queue into the dead letters, with why it cannot be
    /// delivered (a topic MQTT refuses, a payload past its size): it then never holds up the
    /// messages behind it, and `geotrack outbox` lists it. Nothing happens when it is gone.
    public func setAside(_ id: Int64, reason: String) async throws(OutboxError) {
        let result = await onWorker { connection throws(SQLiteFailure) in
            try self.keepingCounts(connection) { counts throws(SQLiteFailure) in
                try connection.execute(Self.deadLetterSchema)
                let move = try connection.prepare("""
                    INSERT OR REPLACE INTO dead_letter (id, destination, topic, payload, retain, created, reason)
                        SELECT id, destination, topic, payload, retain, created, ? FROM message WHERE id = ?
                    """)
                try move.bind([.text(reason), .integer(id)])
                try move.run()
                let destination = try connection.prepare("SELECT destination FROM message WHERE id = ?")
                try destination.bind([.integer(id)])
                if try destination.step(), let known = counts[destination.text(at: 0)] {
                    counts[destination.text(at: 0)] = max(0, known - 1)
                }
                destination.reset()
                let delete = try connection.prepare("DELETE FROM message WHERE id = ?")
                try delete.bind([.integer(id)])
                try delete.run()
            }
        }
        do {
            try result.get()
        } catch {
            throw OutboxError(path: path, message: "cannot set a message aside in \(path): \(error.reason)", reason: error.reason)
        }
    }

    /// What waits, per destination (destinations that only dropped messages included).
    public func summaries() throws(OutboxError) -> [OutboxSummary] {
        try perform("reading the outbox") { connection throws(SQLiteFailure) in
            // One read transaction: both queries see the same moment of the file.
            try connection.transaction(immediate: false) { () throws(SQLiteFailure) in
                var summaries: [String: OutboxSummary] = [:]
                let waiting = try connection.prepare("""
                    SELECT destination, COUNT(*) AS count, MIN(created) AS oldest FROM message GROUP BY destination
                    """)
                while try waiting.step() {
                    let destination = waiting.text(at: 0)
                    summaries[destination] = OutboxSummary(destination: destination, count: Int(waiting.integer(at: 1)),
                                                           oldest: waiting.real(at: 2).flatMap(Self.plausibleDate),
                                                           dropped: 0)
                }
                let dropped = try connection.prepare("SELECT destination, count FROM dropped")
                while try dropped.step() {
                    let destination = dropped.text(at: 0)
                    summaries[destination, default: OutboxSummary(destination: destination, count: 0, oldest: nil, dropped: 0)]
                        .dropped = Int(dropped.integer(at: 1))
                }
                if try Self.hasDeadLetters(connection) {
                    // The newest reason per destination: the one to act on.
                    let dead = try connection.prepare("""
                        SELECT destination, COUNT(*), (SELECT reason FROM dead_letter AS d WHERE d.destination = dead_letter.destination
                                                       ORDER BY id DESC LIMIT 1)
                        FROM dead_letter GROUP BY destination
                        """)
                    while try dead.step() {
                        let destination = dead.text(at: 0)
                        var summary = summaries[destination] ?? OutboxSummary(destination: destination, count: 0, oldest: nil, dropped: 0)
                        summary.deadLetters = Int(dead.integer(at: 1))
                        summary.deadLetterReason = dead.text(at: 2)
                        summaries[destination] = summary
                    }
                }
                return summaries.values.sorted { $0.destination < $1.destination }
            }
        }
    }

    /// A `created` time as a date, or nil when it is no time a clock gave (not finite, before
    /// 1970 or past the year 9999): the file is the user's and may be edited or damaged, and such
    /// a number makes the calendar arithmetic that prints it trap.
    static func plausibleDate(_ seconds: Double) -> Date? {
        guard seconds.isFinite, (0...253_402_300_799).contains(seconds) else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    private static func hasDeadLetters(_ connection: SQLiteConnection) throws(SQLiteFailure) -> Bool {
        try (connection.integer("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'dead_letter'") ?? 0) > 0
    }

    /// The newest message's id for `destination`, 0 when none waits: what is queued after now
    /// has a greater id (ids are never reused).
    public func lastID(for destination: String) throws(OutboxError) -> Int64 {
        try perform("reading the outbox") { connection throws(SQLiteFailure) in
            let select = try connection.prepare("SELECT COALESCE(MAX(id), 0) FROM message WHERE destination = ?")
            try select.bind([.text(destination)])
            return try select.step() ? select.integer(at: 0) : 0
        }
    }

    /// How many messages wait for `destination`, and when the oldest was queued.
    public func summary(for destination: String) throws(OutboxError) -> OutboxSummary {
        try summaries().first { $0.destination == destination }
            ?? OutboxSummary(destination: destination, count: 0, oldest: nil, dropped: 0)
    }

    /// What ``clear(destination:)`` deleted.
    public struct Cleared: Sendable, Equatable {
        /// Messages that were waiting.
        public var messages: Int
        /// Dead letters: messages a server refused for good, kept to be looked at.
        public var deadLetters: Int
    }

    /// Deletes what waits for `destination` (every destination when nil), its dead letters and
    /// its dropped count; returns how many messages and dead letters were deleted.
    @discardableResult
    public func clear(destination: String? = nil) throws(OutboxError) -> Cleared {
        try perform("clearing the outbox") { connection throws(SQLiteFailure) in
            let cleared = try keepingCounts(connection) { counts throws(SQLiteFailure) in
                if let destination { counts[destination] = 0 } else { counts.removeAll() }
                let filter = destination == nil ? "" : " WHERE destination = ?"
                let arguments: [SQLiteValue] = destination.map { [.text($0)] } ?? []
                let messages = try connection.prepare("DELETE FROM message" + filter)
                try messages.bind(arguments)
                try messages.run()
                let deleted = connection.changes
                let dropped = try connection.prepare("DELETE FROM dropped" + filter)
                try dropped.bind(arguments)
                try dropped.run()
                var deadLetters = 0
                if try Self.hasDeadLetters(connection) {
                    let dead = try connection.prepare("DELETE FROM dead_letter" + filter)
                    try dead.bind(arguments)
                    try dead.run()
                    deadLetters = connection.changes
                }
                return Cleared(messages: deleted, deadLetters: deadLetters)
            }
            // What was cleared goes back to the file system now, down to the last free page,
            // and the log with it: the user cleared to get the space back.
            Self.convertToIncrementalVacuum(connection)
            try Self.reclaimSpace(connection, threshold: 1)
            _ = try? connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            return cleared
        }
    }

    /// Puts the dead letters for `destination` (every destination when nil) back in the queue,
    /// each in its first place (by the order it was queued in), to be sent as any message: once
    /// what refused them is mended (the device added in Traccar, the broker's topic allowed).
    /// Returns how many went back.
    @discardableResult
    public func requeueDeadLetters(destination: String? = nil) throws(OutboxError) -> Int {
        try perform("putting dead letters back in the queue") { connection throws(SQLiteFailure) in
            try keepingCounts(connection) { counts throws(SQLiteFailure) -> Int in
                guard try Self.hasDeadLetters(connection) else { return 0 }
                let filter = destination == nil ? "" : " WHERE destination = ?"
                let arguments: [SQLiteValue] = destination.map { [.text($0)] } ?? []
                // A dead letter keeps the id it had in the queue, which no later message takes
                // (AUTOINCREMENT): it goes back before what was queued after it.
                let move = try connection.prepare("""
                    INSERT OR IGNORE INTO message (id, destination, topic, payload, retain, created)
                        SELECT id, destination, topic, payload, retain, created FROM dead_letter
                    """ + filter + " ORDER BY id")
                try move.bind(arguments)
                try move.run()
                let moved = connection.changes
                let delete = try connection.prepare("DELETE FROM dead_letter" + filter)
                try delete.bind(arguments)
                try delete.run()
                // Read again when next needed.
                if let destination { counts[destination] = nil } else { counts.removeAll() }
                return moved
            }
        }
    }

    /// The size of the database files on disk, in bytes (the main file and its write-ahead log).
    public func sizeOnDisk() -> Int {
        [path, path + "-wal"].reduce(0) { total, file in
            var info = stat()
            return total + (stat(file, &info) == 0 ? Int(info.st_size) : 0)
        }
    }

    /// Runs `body` in a write transaction with the counts this connection keeps, which it
    /// updates as it changes rows. They are forgotten when another connection (a second
    /// geotrack, `geotrack outbox`) wrote since (SQLite's `data_version`), and when the
    /// transaction fails: a count is then read again, once, when next needed.
    private func keepingCounts<T>(
        _ connection: SQLiteConnection, _ body: (inout [String: Int]) throws(SQLiteFailure) -> T
    ) throws(SQLiteFailure) -> T {
        // Forgotten while the transaction runs, kept again only once it committed.
        let previous = kept.withLock { kept in
            defer { kept = KeptCounts() }
            return kept
        }
        var version: Int64?
        var counts: [String: Int] = [:]
        let result = try connection.transaction(immediate: true) { () throws(SQLiteFailure) -> T in
            // Read under the write lock: no other connection commits until this one ends.
            version = try connection.integer("PRAGMA data_version")
            if version == previous.version { counts = previous.counts }
            return try body(&counts)
        }
        kept.withLock { $0 = KeptCounts(version: version, counts: counts) }
        return result
    }

    /// Runs `body` on the caller's thread, with the connection to itself.
    private func perform<T: Sendable>(
        _ action: String, _ body: (SQLiteConnection) throws(SQLiteFailure) -> T
    ) throws(OutboxError) -> T {
        do {
            return try connection.withLock { connection throws(SQLiteFailure) in try body(connection) }
        } catch {
            throw OutboxError(path: path, message: "\(action) in \(path) failed: \(error.reason)")
        }
    }

    /// Runs `body` on the outbox's thread, with the connection to itself, and waits for it
    /// without holding the caller's thread.
    func onWorker<T: Sendable>(
        _ body: @escaping @Sendable (SQLiteConnection) throws(SQLiteFailure) -> T
    ) async -> Result<T, SQLiteFailure> {
        await withCheckedContinuation { continuation in
            let queued = worker.submit {
                let result = self.connection.withLock { connection in
                    Result { () throws(SQLiteFailure) -> T in try body(connection) }
                }
                continuation.resume(returning: result)
            }
            if !queued {
                let reason = connection.withLock { $0.isOpen } ? "no thread could be started for it (the process has too many)"
                    : "the outbox is closed"
                continuation.resume(returning: .failure(SQLiteFailure(reason: reason)))
            }
        }
    }
}

/// The counts of waiting messages one connection keeps, with the `data_version` they are true
/// at: queueing compared the count with the capacity by `SELECT COUNT(*)` every time, which
/// reads the destination's whole index (217 s to queue 61 166 messages); kept, an insert costs
/// the same in a long queue. Kept in memory, not in the file, so that the file keeps exactly the
/// tables the GRDB version made (either reads the other's files).
private struct KeptCounts {
    /// `PRAGMA data_version` when the counts were last true; nil, none kept.
    var version: Int64?
    /// Messages waiting per destination; a destination not here is counted when needed.
    var counts: [String: Int] = [:]
}

/// The statements that queue one message, compiled once per transaction for all its messages.
private struct InsertStatements: ~Copyable {
    let insert: SQLiteStatement
    let count: SQLiteStatement
    let trim: SQLiteStatement
    let drop: SQLiteStatement

    init(_ connection: SQLiteConnection) throws(SQLiteFailure) {
        // Into locals first: a noncopyable stored property cannot be left half-initialised by a throw.
        let insert = try connection.prepare(
            "INSERT INTO message (destination, topic, payload, retain, created) VALUES (?, ?, ?, ?, ?)")
        let count = try connection.prepare("SELECT COUNT(*) FROM message WHERE destination = ?")
        let trim = try connection.prepare("""
            DELETE FROM message WHERE id IN
                (SELECT id FROM message WHERE destination = ? ORDER BY id LIMIT ?)
            """)
        let drop = try connection.prepare("""
            INSERT INTO dropped (destination, count) VALUES (?, ?)
            ON CONFLICT(destination) DO UPDATE SET count = count + excluded.count
            """)
        self.insert = insert
        self.count = count
        self.trim = trim
        self.drop = drop
    }

    /// Inserts `message`, then drops its destination's oldest past `capacity`; returns its id.
    /// `counts` holds what waits per destination: read once when missing, then kept.
    func insert(_ message: OutboxMessage, capacity: Int, counts: inout [String: Int],
                _ connection: SQLiteConnection) throws(SQLiteFailure) -> Int64 {
        let waiting: Int
        if let known = counts[message.destination] {
            waiting = known
        } else {
            try count.bind([.text(message.destination)])
            waiting = try count.step() ? Int(count.integer(at: 0)) : 0
            // Done with its one row: a statement left mid-rows would stop the COMMIT.
            count.reset()
        }
        try insert.bind([.text(message.destination), .text(message.topic), .blob(message.payload),
                         .integer(message.retain ? 1 : 0), .real(message.created.timeIntervalSince1970)])
        try insert.run()
        let id = connection.lastInsertedRowID
        var now = waiting + 1
        if now > capacity {
            let excess = Int64(now - capacity)
            try trim.bind([.text(message.destination), .integer(excess)])
            try trim.run()
            try drop.bind([.text(message.destination), .integer(excess)])
            try drop.run()
            now = capacity
        }
        counts[message.destination] = now
        return id
    }
}
