/*
 * ccurl.c -- loading libcurl and making one request (see ccurl.h).
 */
#include "ccurl.h"

const char *geotrack_curl_load(geotrack_curl *api, const char *soname) {
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

size_t geotrack_http_discard(char *data, size_t size, size_t count, void *context) {
    (void)data;
    (void)context;
    return size * count;
}

size_t geotrack_http_discard_header(char *data, size_t size, size_t count, void *context) {
    (void)data;
    (void)context;
    return size * count;
}

void geotrack_http_perform(const geotrack_curl *api, CURL *handle, const geotrack_http_request *request,
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
