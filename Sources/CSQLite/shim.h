/*
 * shim.h -- GeoTrack's view of SQLite (libsqlite3), for the outbox.
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
#ifndef GEOTRACK_CSQLITE_SHIM_H
#define GEOTRACK_CSQLITE_SHIM_H

#include <dlfcn.h>
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
static inline const char *_Nullable geotrack_sqlite_load(geotrack_sqlite *_Nonnull api, const char *_Nonnull soname) {
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!library) return dlerror();
#define GEOTRACK_SQLITE_RESOLVE(field, name) \
    if (!(*(void **)&api->field = dlsym(library, name))) { dlclose(library); return name; }
    GEOTRACK_SQLITE_RESOLVE(open_v2, "sqlite3_open_v2")
    GEOTRACK_SQLITE_RESOLVE(close_v2, "sqlite3_close_v2")
    GEOTRACK_SQLITE_RESOLVE(errmsg, "sqlite3_errmsg")
    GEOTRACK_SQLITE_RESOLVE(errstr, "sqlite3_errstr")
    GEOTRACK_SQLITE_RESOLVE(busy_timeout, "sqlite3_busy_timeout")
    GEOTRACK_SQLITE_RESOLVE(exec, "sqlite3_exec")
    GEOTRACK_SQLITE_RESOLVE(prepare_v2, "sqlite3_prepare_v2")
    GEOTRACK_SQLITE_RESOLVE(finalize, "sqlite3_finalize")
    GEOTRACK_SQLITE_RESOLVE(reset, "sqlite3_reset")
    GEOTRACK_SQLITE_RESOLVE(clear_bindings, "sqlite3_clear_bindings")
    GEOTRACK_SQLITE_RESOLVE(bind_int64, "sqlite3_bind_int64")
    GEOTRACK_SQLITE_RESOLVE(bind_double, "sqlite3_bind_double")
    GEOTRACK_SQLITE_RESOLVE(bind_text64, "sqlite3_bind_text64")
    GEOTRACK_SQLITE_RESOLVE(bind_blob64, "sqlite3_bind_blob64")
    GEOTRACK_SQLITE_RESOLVE(bind_zeroblob, "sqlite3_bind_zeroblob")
    GEOTRACK_SQLITE_RESOLVE(step, "sqlite3_step")
    GEOTRACK_SQLITE_RESOLVE(column_type, "sqlite3_column_type")
    GEOTRACK_SQLITE_RESOLVE(column_int64, "sqlite3_column_int64")
    GEOTRACK_SQLITE_RESOLVE(column_double, "sqlite3_column_double")
    GEOTRACK_SQLITE_RESOLVE(column_text, "sqlite3_column_text")
    GEOTRACK_SQLITE_RESOLVE(column_blob, "sqlite3_column_blob")
    GEOTRACK_SQLITE_RESOLVE(column_bytes, "sqlite3_column_bytes")
    GEOTRACK_SQLITE_RESOLVE(last_insert_rowid, "sqlite3_last_insert_rowid")
    GEOTRACK_SQLITE_RESOLVE(changes, "sqlite3_changes")
    GEOTRACK_SQLITE_RESOLVE(get_autocommit, "sqlite3_get_autocommit")
#undef GEOTRACK_SQLITE_RESOLVE
    return NULL;
}

/* Binds UTF-8 text that SQLite copies (the caller's buffer may go away before the step). An
 * empty Swift string may come with a NULL pointer, which would bind SQL NULL: it is bound as "". */
static inline int geotrack_sqlite_bind_text(const geotrack_sqlite *_Nonnull api, sqlite3_stmt *_Nonnull statement,
                                            int index, const char *_Nullable text, sqlite3_uint64 length) {
    if (text == NULL || length == 0) {
        text = "";
        length = 0;
    }
    return api->bind_text64(statement, index, text, length, SQLITE_TRANSIENT, SQLITE_UTF8);
}

/* Binds bytes that SQLite copies. An empty blob is bound as a zero-length blob: a NULL pointer
 * (what an empty Swift array may give) would bind SQL NULL, which `NOT NULL` refuses. */
static inline int geotrack_sqlite_bind_blob(const geotrack_sqlite *_Nonnull api, sqlite3_stmt *_Nonnull statement,
                                            int index, const void *_Nullable bytes, sqlite3_uint64 length) {
    if (length == 0) return api->bind_zeroblob(statement, index, 0);
    return api->bind_blob64(statement, index, bytes, length, SQLITE_TRANSIENT);
}

#endif /* GEOTRACK_CSQLITE_SHIM_H */
