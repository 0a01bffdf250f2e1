import CSQLite

/// A failed SQLite call, with SQLite's own account of it (`sqlite3_errmsg`), or a library that
/// cannot be loaded.
struct SQLiteFailure: Error {
    var reason: String
    /// SQLite's primary result code for the failure (`SQLITE_NOTADB`, …), 0 when it came from
    /// GeoTrack's own checks.
    var code: Int32 = 0

    /// Whether the file is not a database SQLite can read (`SQLITE_NOTADB`, `SQLITE_CORRUPT`),
    /// as opposed to one it may not open or write.
    var isDamagedFile: Bool { code == SQLITE_NOTADB || code == SQLITE_CORRUPT }
}

/// A value bound to a statement's `?`.
enum SQLiteValue {
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// The one owner of a `sqlite3` connection: it is closed by ``close()`` or, failing that, when
/// this object goes away.
///
/// Not `Sendable`: SQLite's error text belongs to the connection, not to the call, so a call and
/// the reading of its error must not interleave with another thread's. ``Outbox`` keeps it
/// behind a mutex.
///
/// Every call goes through ``LibSQLite``'s table: geotrack is not linked with libsqlite3.
final class SQLiteConnection {
    private var handle: OpaquePointer?
    private let library: LibSQLite
    private var api: UnsafePointer<geotrack_sqlite> { library.api }

    /// Opens `path` with `sqlite3_open_v2`'s `flags`, through `library`.
    init(path: String, flags: Int32, library: LibSQLite) throws(SQLiteFailure) {
        self.library = library
        let api = library.api
        var handle: OpaquePointer?
        let result = api.pointee.open_v2(path, &handle, flags, nil)
        guard result == SQLITE_OK, let handle else {
            // A failed open usually still allocates a handle: it has the detailed message, and
            // must be closed all the same.
            let reason = handle.map { Self.message(api, $0) } ?? library.describe(result)
            _ = api.pointee.close_v2(handle)
            throw SQLiteFailure(reason: reason, code: result & 0xFF)
        }
        self.handle = handle
    }

    // Callers never have to close (``Outbox`` has no required close), so this is the normal way
    // out, not a leak to report.
    deinit {
        close()
    }

    /// Closes the connection; later calls throw. Every statement is finalized by then (they
    /// cannot outlive the call that made them), so `sqlite3_close_v2` frees it at once.
    func close() {
        guard let handle else { return }
        self.handle = nil
        _ = api.pointee.close_v2(handle)
    }

    /// Whether ``close()`` has not been called yet.
    var isOpen: Bool { handle != nil }

    /// Waits up to `milliseconds` for another connection's lock before failing with "busy".
    func setBusyTimeout(milliseconds: Int32) throws(SQLiteFailure) {
        let handle = try open()
        guard api.pointee.busy_timeout(handle, milliseconds) == SQLITE_OK else { throw failure(handle) }
    }

    /// Runs one or more statements that return nothing needed.
    func execute(_ sql: String) throws(SQLiteFailure) {
        let handle = try open()
        guard api.pointee.exec(handle, sql, nil, nil, nil) == SQLITE_OK else { throw failure(handle) }
    }

    /// Compiles one statement.
    func prepare(_ sql: String) throws(SQLiteFailure) -> SQLiteStatement {
        let handle = try open()
        var statement: OpaquePointer?
        guard api.pointee.prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw failure(handle)
        }
        return SQLiteStatement(statement, connection: handle, api: api)
    }

    /// The first column of the first row `sql` returns, as text (nil when no row).
    func text(_ sql: String) throws(SQLiteFailure) -> String? {
        // The statement is finalized on return: one left mid-rows would stop a later COMMIT.
        let statement = try prepare(sql)
        return try statement.step() ? statement.text(at: 0) : nil
    }

    /// The first column of the first row `sql` returns, as an integer (nil when no row).
    func integer(_ sql: String) throws(SQLiteFailure) -> Int64? {
        let statement = try prepare(sql)
        return try statement.step() ? statement.integer(at: 0) : nil
    }

    /// The row id of the last row this connection inserted.
    var lastInsertedRowID: Int64 {
        handle.map { api.pointee.last_insert_rowid($0) } ?? 0
    }

    /// How many rows the last INSERT, UPDATE or DELETE of this connection changed.
    var changes: Int {
        handle.map { Int(api.pointee.changes($0)) } ?? 0
    }

    /// Runs `body` in a transaction, committed when it returns and rolled back when it throws.
    ///
    /// `immediate` takes the write lock at once: a deferred transaction that reads first and
    /// writes later cannot wait for another process's writer (SQLite answers "busy" at the first
    /// write instead of calling the busy handler), so every write transaction is immediate.
    func transaction<T>(immediate: Bool, _ body: () throws(SQLiteFailure) -> T) throws(SQLiteFailure) -> T {
        try execute(immediate ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED")
        do throws(SQLiteFailure) {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            // Some errors (a full disk, I/O) roll back on their own; a second ROLLBACK would only
            // fail, and its message is not the one to report.
            if let handle, api.pointee.get_autocommit(handle) == 0 {
                _ = api.pointee.exec(handle, "ROLLBACK", nil, nil, nil)
            }
            throw error
        }
    }

    private func open() throws(SQLiteFailure) -> OpaquePointer {
        guard let handle else { throw SQLiteFailure(reason: "the outbox is closed") }
        return handle
    }

    private func failure(_ handle: OpaquePointer) -> SQLiteFailure {
        SQLiteFailure(reason: Self.message(api, handle), code: api.pointee.errcode(handle) & 0xFF)
    }

    /// The connection's text for its last failed call (`sqlite3_errmsg`).
    fileprivate static func message(_ api: UnsafePointer<geotrack_sqlite>, _ handle: OpaquePointer) -> String {
        // Never NULL in practice ("out of memory" at worst); the prototype does not promise it.
        api.pointee.errmsg(handle).map { String(cString: $0) } ?? "unknown SQLite error"
    }
}

/// A compiled statement, finalized when it goes away. Non-copyable so that exactly one copy
/// finalizes it.
struct SQLiteStatement: ~Copyable {
    private let statement: OpaquePointer
    private let connection: OpaquePointer
    private let api: UnsafePointer<geotrack_sqlite>

    fileprivate init(_ statement: OpaquePointer, connection: OpaquePointer, api: UnsafePointer<geotrack_sqlite>) {
        self.statement = statement
        self.connection = connection
        self.api = api
    }

    deinit {
        _ = api.pointee.finalize(statement)
    }

    /// Resets the statement and binds `values` to its parameters, in order.
    func bind(_ values: [SQLiteValue]) throws(SQLiteFailure) {
        _ = api.pointee.reset(statement)
        _ = api.pointee.clear_bindings(statement)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let result: Int32
            switch value {
            case .integer(let number):
                result = api.pointee.bind_int64(statement, index, number)
            case .real(let number):
                result = api.pointee.bind_double(statement, index, number)
            case .text(var text):
                result = text.withUTF8 { bytes in
                    bytes.withMemoryRebound(to: CChar.self) { characters in
                        geotrack_sqlite_bind_text(api, statement, index, characters.baseAddress, sqlite3_uint64(characters.count))
                    }
                }
            case .blob(let bytes):
                result = bytes.withUnsafeBytes { buffer in
                    geotrack_sqlite_bind_blob(api, statement, index, buffer.baseAddress, sqlite3_uint64(buffer.count))
                }
            }
            guard result == SQLITE_OK else { throw failure() }
        }
    }

    /// Runs the statement to its next row: `true` when there is one to read, `false` when done.
    func step() throws(SQLiteFailure) -> Bool {
        switch api.pointee.step(statement) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw failure()
        }
    }

    /// Ends the current run (rows not read are dropped); bindings stay.
    func reset() {
        _ = api.pointee.reset(statement)
    }

    /// Runs the statement to its end, ignoring rows.
    func run() throws(SQLiteFailure) {
        while try step() {}
    }

    /// Column `index` of the current row as an integer (0 for NULL).
    func integer(at index: Int32) -> Int64 {
        api.pointee.column_int64(statement, index)
    }

    /// Column `index` of the current row as a real number, or nil for NULL.
    func real(at index: Int32) -> Double? {
        api.pointee.column_type(statement, index) == SQLITE_NULL ? nil : api.pointee.column_double(statement, index)
    }

    /// Column `index` of the current row as text ("" for NULL).
    func text(at index: Int32) -> String {
        // The pointer first, then the length: asking for the text may convert the value, which
        // changes its length.
        guard let characters = api.pointee.column_text(statement, index) else { return "" }
        let count = Int(api.pointee.column_bytes(statement, index))
        return String(decoding: UnsafeBufferPointer(start: characters, count: count), as: UTF8.self)
    }

    /// Column `index` of the current row as bytes (empty for NULL and for an empty blob).
    func blob(at index: Int32) -> [UInt8] {
        guard let bytes = api.pointee.column_blob(statement, index) else { return [] }
        let count = Int(api.pointee.column_bytes(statement, index))
        return [UInt8](UnsafeRawBufferPointer(start: bytes, count: count))
    }

    private func failure() -> SQLiteFailure {
        SQLiteFailure(reason: SQLiteConnection.message(api, connection), code: api.pointee.errcode(connection) & 0xFF)
    }
}
