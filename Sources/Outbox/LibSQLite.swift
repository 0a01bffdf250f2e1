import CSQLite

/// libsqlite3, opened the first time an outbox is opened rather than at every start of the
/// program: only the outbox (publishing, `fleet`, `outbox`) needs it.
///
/// The table of functions lives for the rest of the process, as the library does.
struct LibSQLite: @unchecked Sendable {
    // Written once by `load`, before any other thread can see it; read-only afterwards.
    let api: UnsafePointer<geotrack_sqlite>

    /// The library, or why it cannot be used; loaded once per process, on first use.
    static let shared: Result<LibSQLite, SQLiteFailure> = load(soname: GEOTRACK_SQLITE_SONAME)

    /// Opens `soname` and resolves every function GeoTrack calls.
    static func load(soname: String) -> Result<LibSQLite, SQLiteFailure> {
        // Not initialized here: the table has no zero value in Swift (its entries are non-null),
        // and C fills it; it is only read once every entry is set.
        let table = UnsafeMutablePointer<geotrack_sqlite>.allocate(capacity: 1)
        if let problem = geotrack_sqlite_load(table, soname) {
            table.deallocate()
            return .failure(SQLiteFailure(reason:
                "cannot load \(soname) (\(String(cString: problem))): install SQLite 3 (Debian: apt install libsqlite3-0)"))
        }
        return .success(LibSQLite(api: UnsafePointer(table)))
    }

    /// SQLite's English text for a result code.
    func describe(_ result: Int32) -> String {
        api.pointee.errstr(result).map { String(cString: $0) } ?? "error \(result)"
    }
}
