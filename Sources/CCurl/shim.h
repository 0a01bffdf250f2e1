/*
 * shim.h -- GeoTrack's view of libcurl, for HTTP destinations (OwnTracks' HTTP mode, Traccar's
 * OsmAnd protocol).
 *
 * Swift calls libcurl through geotrack_http_perform only: one request, made and waited for on
 * the calling thread (a thread of its own in Swift, never the cooperative pool), with every
 * option GeoTrack relies on set here in one place.
 *
 * Loading: geotrack is not linked with libcurl. Like libmosquitto, it is opened with dlopen()
 * when the first HTTP destination is made (geotrack_curl_load), so starts that do not publish
 * over HTTP never load it, nor the TLS library behind it. Every call goes through the table that
 * fills; its entries have the types of the real prototypes, so the compiler still checks each
 * call against <curl/curl.h>. Debian 12 ships 7.88.1, which this file is compiled and tested
 * against; 7.62 or newer (CURLOPT_UPLOAD_BUFFERSIZE's era, CURLINFO_OS_ERRNO) is required.
 */
#ifndef GEOTRACK_CCURL_SHIM_H
#define GEOTRACK_CCURL_SHIM_H

/* Calls go through function pointers: curl.h's type-checking macros would not apply anyway. */
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>
#include <dlfcn.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#if LIBCURL_VERSION_NUM < 0x073e00
#error "GeoTrack needs libcurl 7.62 or newer: install a newer libcurl4-openssl-dev"
#endif

/* The library's soname (Debian's libcurl4, the OpenSSL flavour). */
#define GEOTRACK_CURL_SONAME "libcurl.so.4"

/* The libcurl functions GeoTrack calls, resolved by geotrack_curl_load(). */
typedef struct {
    __typeof__(&curl_global_init) global_init;
    __typeof__(&curl_easy_init) easy_init;
    __typeof__(&curl_easy_cleanup) easy_cleanup;
    __typeof__(&curl_easy_reset) easy_reset;
    __typeof__(&curl_easy_setopt) easy_setopt;
    __typeof__(&curl_easy_perform) easy_perform;
    __typeof__(&curl_easy_getinfo) easy_getinfo;
    __typeof__(&curl_easy_strerror) easy_strerror;
    __typeof__(&curl_slist_append) slist_append;
    __typeof__(&curl_slist_free_all) slist_free_all;
} geotrack_curl;

/*
 * Opens `soname` and fills `api`, then initialises the library (once per process: the Swift
 * side keeps the table in a lazily made global). Returns NULL on success, or what went wrong:
 * dlerror()'s text, or the name of a function the library lacks.
 */
static inline const char *geotrack_curl_load(geotrack_curl *api, const char *soname) {
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!library) return dlerror();
#define GEOTRACK_CURL_RESOLVE(field, name) \
    if (!(*(void **)&api->field = dlsym(library, name))) { dlclose(library); return name; }
    GEOTRACK_CURL_RESOLVE(global_init, "curl_global_init")
    GEOTRACK_CURL_RESOLVE(easy_init, "curl_easy_init")
    GEOTRACK_CURL_RESOLVE(easy_cleanup, "curl_easy_cleanup")
    GEOTRACK_CURL_RESOLVE(easy_reset, "curl_easy_reset")
    GEOTRACK_CURL_RESOLVE(easy_setopt, "curl_easy_setopt")
    GEOTRACK_CURL_RESOLVE(easy_perform, "curl_easy_perform")
    GEOTRACK_CURL_RESOLVE(easy_getinfo, "curl_easy_getinfo")
    GEOTRACK_CURL_RESOLVE(easy_strerror, "curl_easy_strerror")
    GEOTRACK_CURL_RESOLVE(slist_append, "curl_slist_append")
    GEOTRACK_CURL_RESOLVE(slist_free_all, "curl_slist_free_all")
#undef GEOTRACK_CURL_RESOLVE
    if (api->global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) return "curl_global_init failed";
    return NULL;
}

/* One request. Strings are NUL-terminated; NULL leaves an option out. */
typedef struct {
    const char *url;
    bool post;                 /* POST `body` (possibly empty); else GET */
    const void *body;
    size_t body_length;
    const char *headers;       /* extra header lines, each ending in '\n' ("Name: value\n") */
    const char *username;      /* basic authentication, when `password` is given too */
    const char *password;
    const char *ca_file;       /* https: the CA certificates (PEM); NULL: the system's */
    const char *certificate_file;
    const char *key_file;
    long connect_timeout_ms;
    long timeout_ms;
} geotrack_http_request;

/* What became of it. */
typedef struct {
    int code;                  /* the CURLcode: CURLE_OK when an answer came */
    long status;               /* the HTTP status, 0 when none came */
    long os_errno;             /* the connect's errno, when code says it failed */
    char error[CURL_ERROR_SIZE];
} geotrack_http_result;

/* The answer's body is not read: OwnTracks' Recorder may send a JSON array of commands and
   cards, Traccar a command; GeoTrack acts on neither, so it is counted and dropped, never parsed. */
static inline size_t geotrack_http_discard(char *data, size_t size, size_t count, void *context) {
    (void)data;
    (void)context;
    return size * count;
}

/* Likewise the response's headers. */
static inline size_t geotrack_http_discard_header(char *data, size_t size, size_t count, void *context) {
    (void)data;
    (void)context;
    return size * count;
}

/*
 * Makes `request` on `handle` (made by api->easy_init; reused between requests so that the
 * connection is kept alive) and waits for the answer. Blocks: call it on a thread of its own.
 */
static inline void geotrack_http_perform(const geotrack_curl *api, CURL *handle, const geotrack_http_request *request,
                                         geotrack_http_result *result) {
    memset(result, 0, sizeof(*result));
    api->easy_reset(handle);
    struct curl_slist *headers = NULL;
    /* curl sends "Expect: 100-continue" before larger bodies; servers such as the Recorder's
       mongoose do not answer it, which costs a second per request. */
    headers = api->slist_append(headers, "Expect:");
    if (request->headers) {
        const char *line = request->headers;
        char buffer[1024];
        while (*line) {
            const char *end = strchr(line, '\n');
            size_t length = end ? (size_t)(end - line) : strlen(line);
            if (length > 0 && length < sizeof(buffer)) {
                memcpy(buffer, line, length);
                buffer[length] = '\0';
                struct curl_slist *appended = api->slist_append(headers, buffer);
                if (appended) headers = appended;
            }
            if (!end) break;
            line = end + 1;
        }
    }
    api->easy_setopt(handle, CURLOPT_URL, request->url);
    /* Only these two: a redirect or a URL can never lead curl to another protocol. */
#if LIBCURL_VERSION_NUM >= 0x075500
    api->easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
#else
    api->easy_setopt(handle, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
    /* Threads: no SIGALRM around name lookups. */
    api->easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
    api->easy_setopt(handle, CURLOPT_FOLLOWLOCATION, 0L);
    api->easy_setopt(handle, CURLOPT_CONNECTTIMEOUT_MS, request->connect_timeout_ms);
    api->easy_setopt(handle, CURLOPT_TIMEOUT_MS, request->timeout_ms);
    api->easy_setopt(handle, CURLOPT_ERRORBUFFER, result->error);
    api->easy_setopt(handle, CURLOPT_WRITEFUNCTION, geotrack_http_discard);
    api->easy_setopt(handle, CURLOPT_HEADERFUNCTION, geotrack_http_discard_header);
    api->easy_setopt(handle, CURLOPT_USERAGENT, "geotrack");
    api->easy_setopt(handle, CURLOPT_HTTPHEADER, headers);
    if (request->post) {
        api->easy_setopt(handle, CURLOPT_POST, 1L);
        api->easy_setopt(handle, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)request->body_length);
        api->easy_setopt(handle, CURLOPT_POSTFIELDS, request->body_length > 0 ? request->body : "");
    } else {
        api->easy_setopt(handle, CURLOPT_HTTPGET, 1L);
    }
    if (request->username && request->password) {
        api->easy_setopt(handle, CURLOPT_HTTPAUTH, (long)CURLAUTH_BASIC);
        api->easy_setopt(handle, CURLOPT_USERNAME, request->username);
        api->easy_setopt(handle, CURLOPT_PASSWORD, request->password);
    }
    if (request->ca_file) api->easy_setopt(handle, CURLOPT_CAINFO, request->ca_file);
    if (request->certificate_file) api->easy_setopt(handle, CURLOPT_SSLCERT, request->certificate_file);
    if (request->key_file) api->easy_setopt(handle, CURLOPT_SSLKEY, request->key_file);

    CURLcode code = api->easy_perform(handle);
    result->code = (int)code;
    long status = 0;
    api->easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &status);
    result->status = code == CURLE_OK ? status : 0;
    long os_errno = 0;
    api->easy_getinfo(handle, CURLINFO_OS_ERRNO, &os_errno);
    result->os_errno = os_errno;
    /* The list and the error buffer are the caller's and this call's: unset before returning. */
    api->easy_setopt(handle, CURLOPT_HTTPHEADER, (struct curl_slist *)NULL);
    api->easy_setopt(handle, CURLOPT_ERRORBUFFER, (char *)NULL);
    api->slist_free_all(headers);
}

/* The error codes Swift names (an enum's values do not import as constants of a fixed type). */
static const int GEOTRACK_CURLE_OK = CURLE_OK;
static const int GEOTRACK_CURLE_URL_MALFORMAT = CURLE_URL_MALFORMAT;
static const int GEOTRACK_CURLE_COULDNT_RESOLVE_HOST = CURLE_COULDNT_RESOLVE_HOST;
static const int GEOTRACK_CURLE_COULDNT_RESOLVE_PROXY = CURLE_COULDNT_RESOLVE_PROXY;
static const int GEOTRACK_CURLE_COULDNT_CONNECT = CURLE_COULDNT_CONNECT;
static const int GEOTRACK_CURLE_OPERATION_TIMEDOUT = CURLE_OPERATION_TIMEDOUT;
static const int GEOTRACK_CURLE_SSL_CONNECT_ERROR = CURLE_SSL_CONNECT_ERROR;
static const int GEOTRACK_CURLE_PEER_FAILED_VERIFICATION = CURLE_PEER_FAILED_VERIFICATION;
static const int GEOTRACK_CURLE_SSL_CACERT_BADFILE = CURLE_SSL_CACERT_BADFILE;
static const int GEOTRACK_CURLE_SSL_CERTPROBLEM = CURLE_SSL_CERTPROBLEM;
static const int GEOTRACK_CURLE_SSL_CIPHER = CURLE_SSL_CIPHER;
static const int GEOTRACK_CURLE_SSL_ENGINE_NOTFOUND = CURLE_SSL_ENGINE_NOTFOUND;

#endif
