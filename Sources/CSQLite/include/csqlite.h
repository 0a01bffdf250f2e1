/*
 * csqlite.h -- GeoTrack's view of SQLite (libsqlite3), for the outbox.
 *
 * The outbox calls SQLite's C API directly: GRDB, which it used before, links Foundation,
 * and Foundation's initialisers cost every geotrack start about 5 MB and half a millisecond.
 *
 * Swift reaches SQLite through the table below, and <sqlite3.h> for its types and constants,
 * except for what does not import: SQLITE_TRANSIENT is a cast of -1 to a function pointer,
 * which Swift cannot spell, so binding text and blobs goes through the helpers below. Debian 12
 * ships 3.40.1, which is what this file is compiled and tested against; SQLITE_OPEN_NOFOLLOW
 * needs 3.31 or newer.
 *
 * Loading: geotrack is not linked with libsqlite3. Loading it took about 0.2 ms and 0.9 MB of
 * RSS at every start, and only the outbox (publishing, `fleet`, `outbox`) uses it, so it is
 * opened with dlopen() when the first outbox is opened (geotrack_sqlite_load). Every call goes
 * through the table that fills; its entries have the types of the real prototypes, so the
 * compiler still checks each call against <sqlite3.h>. They are _Nonnull: Swift calls them
 * as they are, and a table is only used once geotrack_sqlite_load has filled all of them.
 */
#ifndef GEOTRACK_CSQLITE_H
#define GEOTRACK_CSQLITE_H

#include <sqlite3.h>
#include <stddef.h>

#if SQLITE_VERSION_NUMBER < 3031000
#error "GeoTrack needs SQLite 3.31 or newer (SQLITE_OPEN_NOFOLLOW): install a newer libsqlite3-dev"
#endif

/* The library's soname, the same for every SQLite 3 (Debian's package libsqlite3-0). */
#define GEOTRACK_SQLITE_SONAME "libsqlite3.so.0"

/* The SQLite functions GeoTrack calls, resolved by geotrack_sqlite_load(). */
typedef struct {
    __typeof__(&sqlite3_open_v2) _Nonnull open_v2;
    __typeof__(&sqlite3_close_v2) _Nonnull close_v2;
    __typeof__(&sqlite3_errmsg) _Nonnull errmsg;
    __typeof__(&sqlite3_errcode) _Nonnull errcode;
    __typeof__(&sqlite3_errstr) _Nonnull errstr;
    __typeof__(&sqlite3_busy_timeout) _Nonnull busy_timeout;
    __typeof__(&sqlite3_exec) _Nonnull exec;
    __typeof__(&sqlite3_prepare_v2) _Nonnull prepare_v2;
    __typeof__(&sqlite3_finalize) _Nonnull finalize;
    __typeof__(&sqlite3_reset) _Nonnull reset;
    __typeof__(&sqlite3_clear_bindings) _Nonnull clear_bindings;
    __typeof__(&sqlite3_bind_int64) _Nonnull bind_int64;
    __typeof__(&sqlite3_bind_double) _Nonnull bind_double;
    __typeof__(&sqlite3_bind_text64) _Nonnull bind_text64;
    __typeof__(&sqlite3_bind_blob64) _Nonnull bind_blob64;
    __typeof__(&sqlite3_bind_zeroblob) _Nonnull bind_zeroblob;
    __typeof__(&sqlite3_step) _Nonnull step;
    __typeof__(&sqlite3_column_type) _Nonnull column_type;
    __typeof__(&sqlite3_column_int64) _Nonnull column_int64;
    __typeof__(&sqlite3_column_double) _Nonnull column_double;
    __typeof__(&sqlite3_column_text) _Nonnull column_text;
    __typeof__(&sqlite3_column_blob) _Nonnull column_blob;
    __typeof__(&sqlite3_column_bytes) _Nonnull column_bytes;
    __typeof__(&sqlite3_last_insert_rowid) _Nonnull last_insert_rowid;
    __typeof__(&sqlite3_changes) _Nonnull changes;
    __typeof__(&sqlite3_get_autocommit) _Nonnull get_autocommit;
} geotrack_sqlite;

/*
 * Opens `soname` and fills `api`. Returns NULL on success, or what went wrong: dlerror()'s
 * text, or the name of a function the library lacks. Call it once per process; the library
 * stays loaded. SQLite initialises itself on the first sqlite3_open_v2().
 */
const char *_Nullable geotrack_sqlite_load(geotrack_sqlite *_Nonnull api, const char *_Nonnull soname);

/* Binds UTF-8 text that SQLite copies (the caller's buffer may go away before the step). An
 * empty Swift string may come with a NULL pointer, which would bind SQL NULL: it is bound as "". */
int geotrack_sqlite_bind_text(const geotrack_sqlite *_Nonnull api, sqlite3_stmt *_Nonnull statement,
                              int index, const char *_Nullable text, sqlite3_uint64 length);

/* Binds bytes that SQLite copies. An empty blob is bound as a zero-length blob: a NULL pointer
 * (what an empty Swift array may give) would bind SQL NULL, which `NOT NULL` refuses. */
int geotrack_sqlite_bind_blob(const geotrack_sqlite *_Nonnull api, sqlite3_stmt *_Nonnull statement,
                              int index, const void *_Nullable bytes, sqlite3_uint64 length);

#endif /* GEOTRACK_CSQLITE_H */
