/*
 * ccurl.h -- GeoTrack's view of libcurl, for HTTP destinations (OwnTracks' HTTP mode, Traccar's
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
const char *geotrack_curl_load(geotrack_curl *api, const char *soname);

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
size_t geotrack_http_discard(char *data, size_t size, size_t count, void *context);

/* Likewise the response's headers. */
size_t geotrack_http_discard_header(char *data, size_t size, size_t count, void *context);

/*
 * Makes `request` on `handle` (made by api->easy_init; reused between requests so that the
 * connection is kept alive) and waits for the answer. Blocks: call it on a thread of its own.
 */
void geotrack_http_perform(const geotrack_curl *api, CURL *handle, const geotrack_http_request *request,
                                         geotrack_http_result *result);

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
