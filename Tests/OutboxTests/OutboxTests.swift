import CSQLite
import Foundation
import GeoTrackTesting
@testable import Outbox
import Testing

/// The outbox on a real SQLite file: order, removal, the bound, per-destination summaries, and
/// durability across a reopen.
struct OutboxTests {
    private func message(_ index: Int, to destination: String = "mqtt://127.0.0.1:1883") -> OutboxMessage {
        OutboxMessage(destination: destination, topic: "owntracks/a/b", payload: Array("\(index)".utf8), retain: true,
                      created: Date(timeIntervalSince1970: 1_700_000_000 + Double(index)))
    }

    @Test("messages come out oldest first, after a given id, and leave only when removed")
    func order() async throws {
        let folder = try TemporaryDirectory()
        let outbox = try Outbox(path: folder.path + "/outbox.sqlite")
        let ids = try outbox.enqueue(contentsOf: (0..<10).map { message($0) })
        #expect(ids == ids.sorted())
        let first = try await outbox.messages(for: "mqtt://127.0.0.1:1883", limit: 4)
        #expect(first.map { String(decoding: $0.payload, as: UTF8.self) } == ["0", "1", "2", "3"])
        let next = try await outbox.messages(for: "mqtt://127.0.0.1:1883", after: first[3].id, limit: 100)
        #expect(next.count == 6)
        try await outbox.remove(first.map(\.id))
        let summary = try outbox.summary(for: "mqtt://127.0.0.1:1883")
        #expect(summary.count == 6)
        #expect(summary.oldest == Date(timeIntervalSince1970: 1_700_000_004))
        #expect(try await outbox.messages(for: "mqtt://other:1883", limit: 10).isEmpty)
    }

    @Test("its write-ahead log stays small under a steady stream of messages queued and removed, as a tracker's is: about 1 MiB, not SQLite's 4 MiB kept for good")
    func logStaysSmall() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path + "/outbox.sqlite"
        let outbox = try Outbox(path: path)
        var largest = 0
        for index in 0..<3_000 {
            let id = try outbox.enqueue(message(index))
            try await outbox.remove([id])
            if index % 100 == 0 {
                let size = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
                largest = max(largest, size)
            }
        }
        let size = (try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        // A checkpoint may come a little after the 256 pages: a bound with room for it.
        #expect(size <= Outbox.logLimit + 256 * 4096, "the log is \(size) bytes")
        #expect(largest <= 2 * Outbox.logLimit + 256 * 4096, "the log grew to \(largest) bytes")
        #expect(try outbox.summary(for: "mqtt://127.0.0.1:1883").count == 0)
    }

    @Test("past its capacity the oldest messages are dropped and counted, per destination")
    func bounded() async throws {
        let folder = try TemporaryDirectory()
        let outbox = try Outbox(path: folder.path + "/outbox.sqlite", capacity: 5)
        for index in 0..<8 { try outbox.enqueue(message(index)) }
        try outbox.enqueue(message(100, to: "mqtt://other:1883"))
        let kept = try await outbox.messages(for: "mqtt://127.0.0.1:1883", limit: 100)
        #expect(kept.map { String(decoding: $0.payload, as: UTF8.self) } == ["3", "4", "5", "6", "7"])
        let summaries = try outbox.summaries()
        #expect(summaries.map(\.destination) == ["mqtt://127.0.0.1:1883", "mqtt://other:1883"])
        #expect(summaries.map(\.dropped) == [3, 0])
        #expect(summaries.map(\.count) == [5, 1])
        #expect(try outbox.clear(destination: "mqtt://127.0.0.1:1883").messages == 5)
        #expect(try outbox.summaries().map(\.destination) == ["mqtt://other:1883"])
    }

    @Test("what was queued is still there after the outbox is opened again")
    func durable() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path + "/outbox.sqlite"
        do {
            let outbox = try Outbox(path: path)
            try outbox.enqueue(contentsOf: (0..<3).map { message($0) })
        }
        let reopened = try Outbox(path: path)
        let messages = try await reopened.messages(for: "mqtt://127.0.0.1:1883", limit: 10)
        #expect(messages.map(\.retain) == [true, true, true])
        #expect(messages.map(\.topic) == Array(repeating: "owntracks/a/b", count: 3))
        #expect(messages.map(\.created) == (0..<3).map { Date(timeIntervalSince1970: 1_700_000_000 + Double($0)) })
    }

    @Test("a symbolic link in the outbox's place is refused, and its target left alone")
    func refusesLink() throws {
        let folder = try TemporaryDirectory()
        let target = folder.path + "/precious"
        try "keep".write(toFile: target, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/outbox.sqlite", withDestinationPath: target)
        #expect(throws: OutboxError.self) { try Outbox(path: folder.path + "/outbox.sqlite") }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep")
    }

    @Test("a destination is claimed once until released; the lock file is private and never followed")
    func claims() throws {
        let folder = try TemporaryDirectory()
        let outbox = try Outbox(path: folder.path + "/outbox.sqlite")
        let claim = try outbox.claim("mqtt://a/owntracks/u/d")
        let again = #expect(throws: OutboxError.self) { try outbox.claim("mqtt://a/owntracks/u/d") }
        #expect(again?.code == .claimed)
        // Another destination is another claim.
        let other = try outbox.claim("mqtt://a/owntracks/u/e")
        var info = stat()
        #expect(stat(folder.path + "/outbox.sqlite-lock", &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        claim.release()
        claim.release()
        let reclaimed = try outbox.claim("mqtt://a/owntracks/u/d")
        withExtendedLifetime((other, reclaimed)) {}

        let linked = try TemporaryDirectory()
        let target = linked.path + "/precious"
        try "keep".write(toFile: target, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: linked.path + "/outbox.sqlite-lock", withDestinationPath: target)
        let refused = #expect(throws: OutboxError.self) { try Outbox(path: linked.path + "/outbox.sqlite").claim("mqtt://a/owntracks/u/d") }
        #expect(refused?.code == .failure)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep")
    }

    @Test("a file that is not a database is reported, not crashed on")
    func damaged() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path + "/outbox.sqlite"
        try String(repeating: "not sqlite ", count: 200).write(toFile: path, atomically: true, encoding: .utf8)
        let error = #expect(throws: OutboxError.self) { try Outbox(path: path) }
        #expect(error?.message.contains("cannot open the outbox") == true)
        #expect(error?.message.hasSuffix("it is not an outbox SQLite can read: move it aside to start a new one") == true, "\(error?.message ?? "")")
    }

    /// What the GRDB version's migration "v1" ran, verbatim, as a file it made has it.
    private static let grdbSchema = """
        CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
        INSERT INTO grdb_migrations VALUES ('v1');
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
        """

    @Test("an outbox the GRDB version made opens with its messages and dropped counts, its migration table untouched")
    func grdbFile() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path + "/outbox.sqlite"
        try RawSQLite.run(path, "PRAGMA journal_mode = WAL;" + Self.grdbSchema + """
            INSERT INTO message (destination, topic, payload, retain, created) VALUES
                ('mqtt://127.0.0.1:1883', 'owntracks/a/b', X'30', 1, 1700000000.0),
                ('mqtt://127.0.0.1:1883', 'owntracks/a/b', X'', 0, 1700000001.5);
            INSERT INTO dropped (destination, count) VALUES ('mqtt://127.0.0.1:1883', 7);
            """)
        let schema = try RawSQLite.rows(path, "SELECT type || ' ' || name || ': ' || sql FROM sqlite_master ORDER BY name")
        let outbox = try Outbox(path: path)
        let old = try await outbox.messages(for: "mqtt://127.0.0.1:1883", limit: 10)
        #expect(old.map(\.payload) == [[0x30], []])
        #expect(old.map(\.retain) == [true, false])
        #expect(old.map(\.created) == [Date(timeIntervalSince1970: 1_700_000_000), Date(timeIntervalSince1970: 1_700_000_001.5)])
        let summary = try outbox.summary(for: "mqtt://127.0.0.1:1883")
        #expect(summary.count == 2)
        #expect(summary.dropped == 7)
        #expect(try outbox.enqueue(message(2)) > old[1].id)
        outbox.close()
        #expect(try RawSQLite.rows(path, "SELECT identifier FROM grdb_migrations") == ["v1"])
        #expect(try RawSQLite.rows(path, "SELECT type || ' ' || name || ': ' || sql FROM sqlite_master ORDER BY name") == schema)
        #expect(try RawSQLite.rows(path, "PRAGMA journal_mode") == ["wal"])
    }

    @Test("a file that grew while the broker was away shrinks once its messages are delivered; clear shrinks one an older geotrack made too")
    func shrinks() async throws {
        let folder = try TemporaryDirectory()
        let destination = "mqtt://127.0.0.1:1883"
        func fill(_ outbox: Outbox) throws {
            // About 8 MB: an outage of a few hours at one fix a second.
            for batch in 0..<40 {
                try outbox.enqueue(contentsOf: (0..<500).map { index in
                    OutboxMessage(destination: destination, topic: "owntracks/a/b", payload: Array(repeating: 0x41, count: 400),
                                  retain: false, created: Date(timeIntervalSince1970: 1_700_000_000 + Double(batch * 500 + index)))
                })
            }
        }
        func size(_ path: String) throws -> Int {
            try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        }

        // A new outbox, emptied by delivery as `--publish` empties it: 500 at a time.
        let path = folder.path + "/outbox.sqlite"
        let outbox = try Outbox(path: path)
        try fill(outbox)
        let full = outbox.sizeOnDisk()
        #expect(full > 8_000_000, "the outbox is \(full) bytes")
        while case let batch = try await outbox.messages(for: destination, limit: 500), !batch.isEmpty {
            try await outbox.remove(batch.map(\.id))
        }
        outbox.close()
        // What is left: the tables, and fewer free pages than ``Outbox/reclaimThreshold``.
        let emptied = try size(path)
        #expect(emptied < 2_000_000, "the emptied outbox is \(emptied) bytes; it was \(full)")
        #expect(try RawSQLite.rows(path, "PRAGMA auto_vacuum") == ["2"])

        // A file made without auto-vacuum (as the GRDB version and older geotracks made them)
        // keeps its pages when emptied, and gives them back on `clear`, converted for good.
        let old = folder.path + "/old.sqlite"
        try RawSQLite.run(old, "PRAGMA journal_mode = WAL;" + Self.grdbSchema)
        let older = try Outbox(path: old)
        try fill(older)
        try older.enqueue(message(1, to: "mqtt://other:1883"))
        let grown = older.sizeOnDisk()
        #expect(try older.clear(destination: destination) == Outbox.Cleared(messages: 20_000, deadLetters: 0))
        let cleared = older.sizeOnDisk()
        #expect(cleared < 1_000_000, "the cleared outbox is \(cleared) bytes; it was \(grown)")
        #expect(try older.summary(for: "mqtt://other:1883").count == 1)
        older.close()
        #expect(try RawSQLite.rows(old, "PRAGMA auto_vacuum") == ["2"])
        #expect(try RawSQLite.rows(old, "SELECT payload FROM message") == ["1"])
    }

    @Test("a new outbox has exactly the GRDB version's tables, so either can read the other's files")
    func sameSchema() throws {
        let folder = try TemporaryDirectory()
        let old = folder.path + "/grdb.sqlite"
        try RawSQLite.run(old, Self.grdbSchema)
        let new = folder.path + "/outbox.sqlite"
        try Outbox(path: new).close()
        let query = "SELECT type || ' ' || name || ': ' || sql FROM sqlite_master WHERE name IN ('message', 'message_destination', 'dropped', 'grdb_migrations') ORDER BY name"
        let schema = try RawSQLite.rows(new, query)
        #expect(schema.count == 4)
        #expect(schema == (try RawSQLite.rows(old, query)))
        // What GRDB's migrator reads to know "v1" already ran: without it, an older geotrack
        // would try to create `message` again and fail on the new file.
        #expect(try RawSQLite.rows(new, "SELECT identifier FROM grdb_migrations") == ["v1"])
    }

    @Test("the counts an outbox keeps follow what another connection did: its clear loses nothing, its inserts count")
    func keptCountsAcrossConnections() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path + "/outbox.sqlite"
        let first = try Outbox(path: path, capacity: 5)
        let second = try Outbox(path: path, capacity: 5)
        let destination = "mqtt://127.0.0.1:1883"
        for index in 0..<5 { try first.enqueue(message(index)) }
        // Another process clears: the first must not trim as if 5 still waited.
        #expect(try second.clear(destination: destination).messages == 5)
        for index in 5..<8 { try first.enqueue(message(index)) }
        #expect(try first.summary(for: destination).count == 3)
        #expect(try first.summary(for: destination).dropped == 0)
        // Another process queues: the first's next insert counts those too, and keeps the bound.
        for index in 8..<10 { try second.enqueue(message(index)) }
        try first.enqueue(message(10))
        let kept = try await first.messages(for: destination, limit: 100)
        #expect(kept.map { String(decoding: $0.payload, as: UTF8.self) } == ["6", "7", "8", "9", "10"])
        // Its own removals count down: two gone, two more fit before anything is dropped.
        try await first.remove(Array(kept.prefix(2).map(\.id)))
        for index in 11..<13 { try first.enqueue(message(index)) }
        #expect(try first.summary(for: destination).dropped == 1)
        try first.enqueue(message(13))
        #expect(try first.summary(for: destination).count == 5)
        #expect(try first.summary(for: destination).dropped == 2)
        first.close()
        second.close()
    }

    @Test("two outboxes on one file, queueing at once from two threads: nothing lost, the bound kept")
    func twoWriters() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path + "/outbox.sqlite"
        let first = try Outbox(path: path, capacity: 300)
        let second = try Outbox(path: path, capacity: 300)
        let queue = { @Sendable (outbox: Outbox, offset: Int) async throws -> [Int64] in
            var ids: [Int64] = []
            for index in 0..<200 {
                ids.append(try outbox.enqueue(OutboxMessage(destination: "mqtt://127.0.0.1:1883", topic: "t",
                                                            payload: Array("\(offset + index)".utf8), retain: false,
                                                            created: Date(timeIntervalSince1970: 0))))
                if index % 20 == 0 { _ = try await outbox.messages(for: "mqtt://127.0.0.1:1883", limit: 5) }
            }
            return ids
        }
        async let one = Task.detached { try await queue(first, 0) }.value
        async let two = Task.detached { try await queue(second, 1_000) }.value
        let ids = try await one + two
        #expect(Set(ids).count == 400)
        let kept = try await first.messages(for: "mqtt://127.0.0.1:1883", limit: 1_000)
        #expect(kept.count == 300)
        #expect(kept.map(\.id) == kept.map(\.id).sorted())
        // The 100 dropped are the oldest: every id kept is newer than every id dropped.
        #expect(kept.map(\.id) == ids.sorted().suffix(300))
        #expect(try second.summary(for: "mqtt://127.0.0.1:1883").dropped == 100)
    }

    @Test("the async calls run on the outbox's own thread, which ends when the outbox is closed or released")
    func ownThread() async throws {
        let folder = try TemporaryDirectory()
        let outbox = try Outbox(path: folder.path + "/outbox.sqlite")
        #expect(!outbox.worker.isRunning)
        // The same path as messages(for:) and remove(_:); the kernel's name of the thread it ran on.
        let name = await outbox.onWorker { _ in try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8) }
        #expect(try name.get() == "geotrack-outbox\n")
        #expect(outbox.worker.isRunning)
        outbox.close()
        #expect(try await waitUntil { !outbox.worker.isRunning })
        let closed = await #expect(throws: OutboxError.self) { try await outbox.messages(for: "x", limit: 1) }
        #expect(closed?.message.contains("closed") == true)
        #expect(throws: OutboxError.self) { try outbox.enqueue(message(0)) }

        var workers: [OutboxWorker] = []
        for index in 0..<40 {
            let outbox = try Outbox(path: folder.path + "/outbox-\(index).sqlite")
            try outbox.enqueue(message(index))
            #expect(try await outbox.messages(for: "mqtt://127.0.0.1:1883", limit: 1).count == 1)
            workers.append(outbox.worker)
        }
        #expect(try await waitUntil { workers.allSatisfy { !$0.isRunning } })
    }

    @Test("the installed SQLite loads, and its own text for a result code comes through the table")
    func libraryLoads() throws {
        let library = try LibSQLite.shared.get()
        #expect(library.describe(SQLITE_OK) == "not an error")
    }

    @Test("a SQLite that is not there is one line that says what to install, not a crash")
    func libraryMissing() throws {
        let soname = "libgeotrack-no-such-sqlite3.so.0"
        let result = LibSQLite.load(soname: soname)
        guard case .failure(let failure) = result else {
            Issue.record("a missing library loaded")
            return
        }
        #expect(failure.reason.hasPrefix("cannot load \(soname) ("))
        #expect(failure.reason.contains("apt install libsqlite3-0"))

        // Opening an outbox with it: the typed error, with that message, and no file made.
        let folder = try TemporaryDirectory()
        let path = folder.path + "/outbox.sqlite"
        let error = #expect(throws: OutboxError.self) { try Outbox(path: path, library: result) }
        #expect(error?.code == .libraryMissing)
        #expect(error?.path == path)
        #expect(error?.message == "cannot open the outbox \(path): \(failure.reason)")
        #expect(error?.message.contains("\n") == false)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// Polls `condition` for up to 5 s.
    private func waitUntil(_ condition: () -> Bool) async throws -> Bool {
        for _ in 0..<500 {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }
}

/// SQLite itself, without the outbox: to make files as other programs (the GRDB version) did,
/// and to look at what the outbox wrote. Through the outbox's table of functions, as nothing
/// links libsqlite3.
private enum RawSQLite {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs a script of statements on the file at `path` (created when missing).
    static func run(_ path: String, _ script: String) throws {
        try withDatabase(path) { sqlite, database in
            guard sqlite.exec(database, script, nil, nil, nil) == SQLITE_OK else {
                throw failure(sqlite, database)
            }
        }
    }

    /// The first column of every row `query` returns, as text.
    static func rows(_ path: String, _ query: String) throws -> [String] {
        try withDatabase(path) { sqlite, database in
            var statement: OpaquePointer?
            guard sqlite.prepare_v2(database, query, -1, &statement, nil) == SQLITE_OK, let statement else {
                throw failure(sqlite, database)
            }
            defer { _ = sqlite.finalize(statement) }
            var rows: [String] = []
            while sqlite.step(statement) == SQLITE_ROW {
                rows.append(sqlite.column_text(statement, 0).map { String(cString: $0) } ?? "NULL")
            }
            return rows
        }
    }

    private static func withDatabase<T>(_ path: String, _ body: (geotrack_sqlite, OpaquePointer) throws -> T) throws -> T {
        let sqlite = try LibSQLite.shared.get().api.pointee
        var database: OpaquePointer?
        guard sqlite.open_v2(path, &database, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK,
              let database else {
            _ = sqlite.close_v2(database)
            throw Failure(description: "cannot open \(path)")
        }
        defer { _ = sqlite.close_v2(database) }
        _ = sqlite.busy_timeout(database, 10_000)
        return try body(sqlite, database)
    }

    private static func failure(_ sqlite: geotrack_sqlite, _ database: OpaquePointer) -> Failure {
        Failure(description: sqlite.errmsg(database).map { String(cString: $0) } ?? "unknown SQLite error")
    }
}

/// The outbox file holds where the user was: only its owner reads it, and a damaged time in it
/// is shown as unknown rather than trapping the command that prints it.
struct OutboxFileTests {
    private static func mode(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & 0o777 : 0
    }

    @Test("a new outbox, and its write-ahead log, are 0600 whatever the umask lets through")
    func createdPrivate() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path + "/outbox.sqlite"
        let outbox = try Outbox(path: path)
        try outbox.enqueue(OutboxMessage(destination: "mqtt://b:1883", topic: "owntracks/a/b", payload: [1], retain: false,
                                         created: Date(timeIntervalSince1970: 1_700_000_000)))
        #expect(Self.mode(path) == 0o600)
        #expect(Self.mode(path + "-wal") == 0o600)
        outbox.close()
    }

    @Test("an outbox an older geotrack left 0644 is narrowed to 0600 when opened")
    func narrowed() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path + "/outbox.sqlite"
        #expect(FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o644]))
        #expect(Self.mode(path) == 0o644)
        let outbox = try Outbox(path: path)
        #expect(Self.mode(path) == 0o600)
        outbox.close()
    }

    @Test("a created time no clock gives (1e300, before 1970) leaves the oldest unknown, the count intact",
          arguments: [1e300, -1e300, -1.0])
    func implausibleCreated(seconds: Double) throws {
        let folder = try TemporaryDirectory()
        let outbox = try Outbox(path: folder.path + "/outbox.sqlite")
        try outbox.enqueue(OutboxMessage(destination: "mqtt://b:1883", topic: "owntracks/a/b", payload: [1], retain: false,
                                         created: Date(timeIntervalSince1970: seconds)))
        let summary = try outbox.summary(for: "mqtt://b:1883")
        #expect(summary.count == 1)
        #expect(summary.oldest == nil)
        outbox.close()
    }
}
