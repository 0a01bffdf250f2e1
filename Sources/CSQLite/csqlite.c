/*
 * csqlite.c -- loading libsqlite3 and the binding helpers Swift cannot spell (see csqlite.h).
 */
#include "csqlite.h"

#include <dlfcn.h>

/*
 * Opens `soname` and fills `api`. Returns NULL on success, or what went wrong: dlerror()'s
 * text, or the name of a function the library lacks. Call it once per process; the library
 * stays loaded. SQLite initialises itself on the first sqlite3_open_v2().
 */
const char *_Nullable geotrack_sqlite_load(geotrack_sqlite *_Nonnull api, const char *_Nonnull soname) {
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!library) return dlerror();
#define GEOTRACK_SQLITE_RESOLVE(field, name) \
    if (!(*(void **)&api->field = dlsym(library, name))) { dlclose(library); return name; }
    GEOTRACK_SQLITE_RESOLVE(open_v2, "sqlite3_open_v2")
    GEOTRACK_SQLITE_RESOLVE(close_v2, "sqlite3_close_v2")
    GEOTRACK_SQLITE_RESOLVE(errmsg, "sqlite3_errmsg")
    GEOTRACK_SQLITE_RESOLVE(errcode, "sqlite3_errcode")
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
int geotrack_sqlite_bind_text(const geotrack_sqlite *_Nonnull api, sqlite3_stmt *_Nonnull statement,
                              int index, const char *_Nullable text, sqlite3_uint64 length) {
    if (text == NULL || length == 0) {
        text = "";
        length = 0;
    }
    return api->bind_text64(statement, index, text, length, SQLITE_TRANSIENT, SQLITE_UTF8);
}

/* Binds bytes that SQLite copies. An empty blob is bound as a zero-length blob: a NULL pointer
 * (what an empty Swift array may give) would bind SQL NULL, which `NOT NULL` refuses. */
int geotrack_sqlite_bind_blob(const geotrack_sqlite *_Nonnull api, sqlite3_stmt *_Nonnull statement,
                              int index, const void *_Nullable bytes, sqlite3_uint64 length) {
    if (length == 0) return api->bind_zeroblob(statement, index, 0);
    return api->bind_blob64(statement, index, bytes, length, SQLITE_TRANSIENT);
}

