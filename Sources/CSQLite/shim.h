/*
 * shim.h -- GeoTrack's view of SQLite (libsqlite3), for the outbox.
 *
 * The outbox calls SQLite's C API directly: GRDB, which it used before, links Foundation,
 * and Foundation's initialisers cost every geotrack start about 5 MB and half a millisecond.
 *
 * Swift reaches <sqlite3.h> as it is, except for what does not import: SQLITE_TRANSIENT is a
 * cast of -1 to a function pointer, which Swift cannot spell, so binding text and blobs goes
 * through the helpers below. Debian 12 ships 3.40.1, which is what this file is compiled and
 * tested against; SQLITE_OPEN_NOFOLLOW needs 3.31 or newer.
 */
#ifndef GEOTRACK_CSQLITE_SHIM_H
#define GEOTRACK_CSQLITE_SHIM_H

#include <sqlite3.h>

#if SQLITE_VERSION_NUMBER < 3031000
#error "GeoTrack needs SQLite 3.31 or newer (SQLITE_OPEN_NOFOLLOW): install a newer libsqlite3-dev"
#endif

/* Binds UTF-8 text that SQLite copies (the caller's buffer may go away before the step). An
 * empty Swift string may come with a NULL pointer, which would bind SQL NULL: it is bound as "". */
static inline int geotrack_sqlite_bind_text(sqlite3_stmt *statement, int index, const char *text,
                                            sqlite3_uint64 length) {
    if (text == 0 || length == 0) {
        text = "";
        length = 0;
    }
    return sqlite3_bind_text64(statement, index, text, length, SQLITE_TRANSIENT, SQLITE_UTF8);
}

/* Binds bytes that SQLite copies. An empty blob is bound as a zero-length blob: a NULL pointer
 * (what an empty Swift array may give) would bind SQL NULL, which `NOT NULL` refuses. */
static inline int geotrack_sqlite_bind_blob(sqlite3_stmt *statement, int index, const void *bytes,
                                            sqlite3_uint64 length) {
    if (length == 0) return sqlite3_bind_zeroblob(statement, index, 0);
    return sqlite3_bind_blob64(statement, index, bytes, length, SQLITE_TRANSIENT);
}

#endif /* GEOTRACK_CSQLITE_SHIM_H */
