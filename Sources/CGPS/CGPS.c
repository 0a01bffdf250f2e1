/*
 * CGPS.c -- GeoTrack's stable view of libgps (see include/CGPS.h), compiled against the gps.h
 * of the libgps GeoTrack runs with.
 *
 * Where a field moved, the branch is chosen with GPSD_API_MAJOR_VERSION, after
 * the change list at the top of gpsd's include/gps.h:
 *   API 7  gps_read() gained (message, message_len).
 *   API 8  gps_fix_t gained sep (spherical error).
 *   API 9  gps_fix_t.time, skyview_time, devices.time and devconfig_t.activated
 *          and cycle became timespec_t (before: double seconds); altHAE, altMSL,
 *          geoid_sep and magnetic_var were added to gps_fix_t (before: altitude
 *          was MSL); satellite elevation/azimuth became doubles with NaN for unknown;
 *          satellite_t gained health.
 *   API 10 gps_data_t.status moved to gps_fix_t.status.
 *   API 12 attitude moved out of gps_data_t's anonymous union (same member name).
 *   API 14 gps_fd became gps_fd_t (socket_t is intptr_t); gps_stream() takes
 *          (watch_t, const char *); attitude_t gained mheading.
 *   API 16 satellites_visible and devices.ndevices became unsigned, MAXUSERDEVS
 *          became configurable (read through the macro, as here).
 * Debian 12 ships API 11 (gpsd 3.22), which is what this file is compiled and
 * tested against. APIs older than 7 are refused at compile time.
 *
 * LibGPSAPITests reads this file: it calls nothing from libgps that gps.h does not declare.
 */
#include "CGPS.h"

#include <gps.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#if GPSD_API_MAJOR_VERSION < 7
#error "GeoTrack needs libgps API 7 or newer (gpsd 3.18+): install a newer libgps-dev"
#endif

/* MARK: helpers */

static double geotrack_finite_or_nan(double value) {
    return isfinite(value) ? value : NAN;
}

#if GPSD_API_MAJOR_VERSION >= 9
static geotrack_time geotrack_time_from(timespec_t ts) {
    geotrack_time t;
    t.present = (ts.tv_sec != 0 || ts.tv_nsec != 0);
    t.seconds = (int64_t)ts.tv_sec;
    t.nanoseconds = (int64_t)ts.tv_nsec;
    return t;
}
static double geotrack_seconds_from(timespec_t ts) {
    if (ts.tv_sec == 0 && ts.tv_nsec == 0) return NAN;
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A DEVICE's cycle in seconds; NaN when unknown.
 *
 * libgps 3.22 parses DEVICE's "cycle" as a double but stores it over the timespec it declares,
 * so tv_sec holds the double's bits (1.0 s arrives as tv_sec 4607182418800017408). No real
 * cycle has 10^15 seconds, and every positive normal double's bits are above that: such a
 * tv_sec is read back as the double it is; a correct timespec is read as one. */
static double geotrack_cycle_from(timespec_t ts) {
    if (ts.tv_nsec == 0 && ts.tv_sec > 1000000000000000LL) {
        double seconds;
        int64_t bits = (int64_t)ts.tv_sec;
        memcpy(&seconds, &bits, sizeof seconds);
        return (isfinite(seconds) && seconds > 0) ? seconds : NAN;
    }
    return geotrack_seconds_from(ts);
}
#else
/* Before API 9 times were doubles of Unix seconds, NaN or 0 when absent. */
static geotrack_time geotrack_time_from(double seconds) {
    geotrack_time t;
    t.present = isfinite(seconds) && seconds != 0;
    if (!t.present) { t.seconds = 0; t.nanoseconds = 0; return t; }
    double whole = floor(seconds);
    t.seconds = (int64_t)whole;
    t.nanoseconds = (int64_t)llround((seconds - whole) * 1e9);
    if (t.nanoseconds >= 1000000000) { t.seconds += 1; t.nanoseconds -= 1000000000; }
    return t;
}
static double geotrack_seconds_from(double seconds) {
    return (isfinite(seconds) && seconds != 0) ? seconds : NAN;
}

/* A DEVICE's cycle in seconds; NaN when unknown. */
static double geotrack_cycle_from(double seconds) {
    return geotrack_seconds_from(seconds);
}
#endif

/* Finds `"class":"NAME"` in a JSON line (gpsd writes no spaces, but allow them). */
geotrack_kind geotrack_kind_of_message(const char *message) {
    const char *key = strstr(message, "\"class\"");
    if (key == NULL) return GEOTRACK_KIND_OTHER;
    const char *p = key + 7;
    while (*p == ' ' || *p == '\t') p++;
    if (*p != ':') return GEOTRACK_KIND_OTHER;
    p++;
    while (*p == ' ' || *p == '\t') p++;
    if (*p != '"') return GEOTRACK_KIND_OTHER;
    p++;
    const char *end = strchr(p, '"');
    if (end == NULL) return GEOTRACK_KIND_OTHER;
    size_t n = (size_t)(end - p);
    if (n == 3 && strncmp(p, "TPV", 3) == 0) return GEOTRACK_KIND_TPV;
    if (n == 3 && strncmp(p, "SKY", 3) == 0) return GEOTRACK_KIND_SKY;
    if (n == 3 && strncmp(p, "ATT", 3) == 0) return GEOTRACK_KIND_ATT;
    if (n == 3 && strncmp(p, "GST", 3) == 0) return GEOTRACK_KIND_GST;
    if (n == 7 && strncmp(p, "DEVICES", 7) == 0) return GEOTRACK_KIND_DEVICES;
    if (n == 6 && strncmp(p, "DEVICE", 6) == 0) return GEOTRACK_KIND_DEVICE;
    if (n == 7 && strncmp(p, "VERSION", 7) == 0) return GEOTRACK_KIND_VERSION;
    if (n == 5 && strncmp(p, "ERROR", 5) == 0) return GEOTRACK_KIND_ERROR;
    return GEOTRACK_KIND_OTHER;
}

/* MARK: connection
 *
 * GeoTrack owns the socket: gps_open() connects with a blocking connect(2) that nothing can
 * interrupt (a peer that never answers holds it for the kernel's two minutes of SYN retries),
 * and gps_read() frames lines in a buffer GeoTrack cannot bound or inspect. So the shim
 * connects without blocking, every wait also watches a wake-up descriptor, GeoTrack frames
 * and checks each line, and libgps parses it with gps_unpack(), which needs no
 * connection. */


/* Waits until `fd` is ready for `events` or `wake_fd` is readable. Returns 1 when `fd` is
 * ready (or in error or hung up), 0 when woken, -1 with errno on failure. */
int geotrack_wait(int fd, short events, int wake_fd) {
    struct pollfd pfd[2];
    pfd[0].fd = fd;
    pfd[0].events = events;
    pfd[0].revents = 0;
    pfd[1].fd = wake_fd;
    pfd[1].events = POLLIN;
    pfd[1].revents = 0;
    int r;
    do {
        r = poll(pfd, 2, -1);
    } while (r < 0 && errno == EINTR);
    if (r < 0) return -1;
    if (pfd[1].revents != 0) return 0;
    return 1;
}

/* Makes `fd` non-blocking and close-on-exec. Returns 0, or -1 with errno. */
static int geotrack_set_flags(int fd) {
    int flags = fcntl(fd, F_GETFL, 0);
    if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0) return -1;
    return fcntl(fd, F_SETFD, FD_CLOEXEC) == 0 ? 0 : -1;
}

/* Turns on TCP keepalive for a connection to gpsd: when the path to a remote gpsd dies
 * (Wi-Fi or LTE gone, its machine off) without a FIN or RST ever arriving, a connection that
 * has gone quiet is probed after GEOTRACK_KEEPALIVE_IDLE seconds, and given up with ETIMEDOUT
 * when GEOTRACK_KEEPALIVE_COUNT probes, GEOTRACK_KEEPALIVE_INTERVAL seconds apart, get no
 * reply: the reader then fails and the client connects again. A gpsd that is there but says
 * nothing (no receiver) answers the probes, and stays connected. Best effort: a system
 * without these options keeps the connection as before. */
static void geotrack_keepalive(int fd) {
    int on = 1, idle = GEOTRACK_KEEPALIVE_IDLE, interval = GEOTRACK_KEEPALIVE_INTERVAL, count = GEOTRACK_KEEPALIVE_COUNT;
    (void)setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof(on));
#ifdef TCP_KEEPIDLE
    (void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof(idle));
#endif
#ifdef TCP_KEEPINTVL
    (void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &interval, sizeof(interval));
#endif
#ifdef TCP_KEEPCNT
    (void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &count, sizeof(count));
#endif
}

/* Connects to host:port over TCP without blocking in connect(2): each address is tried in
 * turn, and the wait for it watches `wake_fd`. On success returns 0 and the connected,
 * non-blocking, close-on-exec socket in *out_fd; otherwise the last errno, or
 * GEOTRACK_CONNECT_NOHOST, or GEOTRACK_CONNECT_WOKEN. */
int geotrack_connect(const char *host, const char *port, int wake_fd, int *out_fd) {
    struct addrinfo hints;
    memset(&hints, 0, sizeof(hints));
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_protocol = IPPROTO_TCP;
    struct addrinfo *list = NULL;
    if (getaddrinfo(host, port, &hints, &list) != 0 || list == NULL) {
        return GEOTRACK_CONNECT_NOHOST;
    }
    int result = ECONNREFUSED;
    for (struct addrinfo *ai = list; ai != NULL; ai = ai->ai_next) {
        int fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
        if (fd < 0) { result = errno; continue; }
        if (geotrack_set_flags(fd) != 0) { result = errno; close(fd); continue; }
        geotrack_keepalive(fd);
        if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0) {
            *out_fd = fd;
            freeaddrinfo(list);
            return 0;
        }
        if (errno != EINPROGRESS && errno != EINTR) {
            result = errno;
            close(fd);
            continue;
        }
        int ready = geotrack_wait(fd, POLLOUT, wake_fd);
        if (ready <= 0) {
            result = ready == 0 ? GEOTRACK_CONNECT_WOKEN : errno;
            close(fd);
            if (ready == 0) break;
            continue;
        }
        int error = 0;
        socklen_t length = sizeof(error);
        if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) != 0) error = errno;
        if (error == 0) {
            *out_fd = fd;
            freeaddrinfo(list);
            return 0;
        }
        result = error;
        close(fd);
    }
    freeaddrinfo(list);
    return result;
}

/* Sends all of `buffer` on the non-blocking socket, waiting for room as needed (never raising
 * SIGPIPE). Returns 0, GEOTRACK_CONNECT_WOKEN, or an errno value. */
int geotrack_send_all(int fd, int wake_fd, const char *buffer, size_t length) {
    size_t sent = 0;
    while (sent < length) {
        ssize_t n = send(fd, buffer + sent, length - sent, MSG_NOSIGNAL);
        if (n > 0) { sent += (size_t)n; continue; }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            int ready = geotrack_wait(fd, POLLOUT, wake_fd);
            if (ready == 0) return GEOTRACK_CONNECT_WOKEN;
            if (ready < 0) return errno;
            continue;
        }
        return n < 0 ? errno : EPIPE;
    }
    return 0;
}

/* Reads what the non-blocking socket has, up to `length` bytes. Returns the count, 0 at the
 * end of the stream, or -1 with errno (EAGAIN when nothing is there yet). */
ssize_t geotrack_receive(int fd, void *buffer, size_t length) {
    ssize_t n;
    do {
        n = recv(fd, buffer, length, 0);
    } while (n < 0 && errno == EINTR);
    return n;
}

/* A pipe whose read end wakes geotrack_wait: both ends non-blocking and close-on-exec.
 * Returns 0, or -1 with errno. */
int geotrack_wake_pipe(int fds[2]) {
    if (pipe(fds) != 0) return -1;
    if (geotrack_set_flags(fds[0]) != 0 || geotrack_set_flags(fds[1]) != 0) {
        int saved = errno;
        close(fds[0]);
        close(fds[1]);
        errno = saved;
        return -1;
    }
    return 0;
}

/* Makes the read end of a wake pipe readable for good (it is never drained). */
void geotrack_wake(int write_fd) {
    char byte = 1;
    ssize_t n;
    do {
        n = write(write_fd, &byte, 1);
    } while (n < 0 && errno == EINTR);
}

/* Closes a socket GeoTrack opened. */
void geotrack_close_socket(int fd) {
    close(fd);
}

/* MARK: parsing */

/* libgps's parser, gps_unpack(), as gps.h declares it on every API this file supports: GeoTrack
 * calls nothing from libgps that gps.h does not declare (LibGPSTests checks this file for it).
 * gps_unpack() parses every JSON object in the text it is given, one after another, until the
 * text is used up. In 3.22 that loop never ends when an entry of a DEVICES list fails to parse
 * (a value of the wrong type, a string longer than its field, one device too many): its parser
 * reports the failure without moving on. GeoTrack's strict JSON check (JSONSyntax) refuses
 * such lines before libgps sees them, with the limits geotrack_device_field_capacity() and
 * geotrack_devices_capacity() give. */
/* The parser's type, from gps.h's declaration: the address geotrack_libgps_load() found is
 * called as gps.h declares it, whatever the release. */
typedef __typeof__(&gps_unpack) geotrack_unpack_function;

/* The libgps to open. A build against another gpsd (make build GPSD_PREFIX=DIR) names its
 * libgps.so by path (-DGEOTRACK_LIBGPS_PATH), so the program runs with the libgps whose gps.h
 * it was compiled with. Otherwise the soname of the libgps whose gps.h this file was compiled
 * with (distributions' libgps26, libgps28, libgps30 packages), and only that: a missing
 * libgps28 is said, never stood in for by the development link libgps.so, which may be
 * another release whose gps_data_t gps_unpack() would fill with another layout. An API this
 * file does not know has no soname to name, and takes the development link, which belongs to
 * the gps.h it was compiled with. */
#if defined(GEOTRACK_LIBGPS_PATH)
#define GEOTRACK_LIBGPS_SONAME GEOTRACK_LIBGPS_PATH
#elif GPSD_API_MAJOR_VERSION == 9
#define GEOTRACK_LIBGPS_SONAME "libgps.so.26"
#elif GPSD_API_MAJOR_VERSION == 11
#define GEOTRACK_LIBGPS_SONAME "libgps.so.28"
#elif GPSD_API_MAJOR_VERSION == 14
#define GEOTRACK_LIBGPS_SONAME "libgps.so.30"
#else
#define GEOTRACK_LIBGPS_SONAME "libgps.so"
#endif

int geotrack_libgps_api(void) {
    return GPSD_API_MAJOR_VERSION;
}

const char *geotrack_libgps_soname(void) {
    return GEOTRACK_LIBGPS_SONAME;
}

struct gps_data_t *geotrack_data_create(void) {
    return calloc(1, sizeof(struct gps_data_t));
}

void geotrack_data_free(struct gps_data_t *data) {
    free(data);
}

/* Opens `soname` and finds gps_unpack() there. Returns NULL on success, or dlerror()'s text.
 * Call it once per process; a library it opens stays loaded. */
const char *geotrack_libgps_load(const char *soname, geotrack_json_unpack *unpack) {
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!library) return dlerror();
    *unpack = dlsym(library, "gps_unpack");
    if (!*unpack) {
        dlclose(library);
        return "gps_unpack is missing from it";
    }
    return NULL;
}

/* How many entries a DEVICES list may have: libgps fails to parse (and 3.22 loops on) more. */
int geotrack_devices_capacity(void) {
    struct gps_data_t *none = NULL;
    return (int)(sizeof(none->devices.list) / sizeof(none->devices.list[0]));
}

/* The size of the string field that a DEVICE key of `length` bytes at `key` fills, terminator
 * included; 0 for a key that is not a string field. */
int geotrack_device_field_capacity(const char *key, size_t length) {
    struct devconfig_t *none = NULL;
#define GEOTRACK_FIELD(name) \
    if (length == sizeof(#name) - 1 && strncmp(key, #name, length) == 0) return (int)sizeof(none->name);
    GEOTRACK_FIELD(path)
    GEOTRACK_FIELD(driver)
    GEOTRACK_FIELD(subtype)
#if GPSD_API_MAJOR_VERSION >= 9
    GEOTRACK_FIELD(subtype1)
#endif
    GEOTRACK_FIELD(hexdata)
#undef GEOTRACK_FIELD
    return 0;
}

/* Whether the JSON line has the key `"name"` (followed by a colon). libgps stores a time it
 * read as 1970-01-01T00:00:00Z as zero, the same as no time at all; this tells them apart. */
static bool geotrack_line_has_key(const char *line, const char *name) {
    size_t n = strlen(name);
    for (const char *p = strchr(line, '"'); p != NULL; p = strchr(p + 1, '"')) {
        if (strncmp(p + 1, name, n) != 0 || p[n + 1] != '"') continue;
        const char *q = p + n + 2;
        while (*q == ' ' || *q == '\t') q++;
        if (*q == ':') return true;
    }
    return false;
}

/* Parses one gpsd JSON line (NUL-terminated, writable: libgps may modify it) into `out`,
 * with `data` as libgps's scratch space. Returns the line's kind.
 *
 * libgps accumulates `set` and leaves fields of older messages in place, so `set`, the fix
 * time and the device records are cleared before every line, and the kind comes from this
 * line's own class. */
geotrack_kind geotrack_unpack(geotrack_json_unpack unpack, struct gps_data_t *data, char *line,
                              geotrack_report *out) {
    memset(out, 0, sizeof(*out));
    data->set = 0;
    /* A DEVICE or DEVICES message may leave out fields (driver, activated...). */
    memset(&data->dev, 0, sizeof(data->dev));
    memset(&data->devices, 0, sizeof(data->devices));
    memset(data->error, 0, sizeof(data->error));
#if GPSD_API_MAJOR_VERSION >= 9
    data->fix.time.tv_sec = 0;
    data->fix.time.tv_nsec = 0;
    /* Not every libgps release gives these keys a default when a TPV leaves them out. */
    data->fix.depth = NAN;
    data->fix.dgps_age = NAN;
    data->fix.dgps_station = -1;
#if GPSD_API_MAJOR_VERSION >= 10
    data->fix.wanglem = data->fix.wangler = data->fix.wanglet = NAN;
    data->fix.wspeedr = data->fix.wspeedt = NAN;
#endif
#else
    data->fix.time = NAN;
#endif
    geotrack_kind kind = geotrack_kind_of_message(line);
    bool sent_time = (kind == GEOTRACK_KIND_TPV || kind == GEOTRACK_KIND_SKY || kind == GEOTRACK_KIND_ATT
                      || kind == GEOTRACK_KIND_GST)
        && geotrack_line_has_key(line, "time");
    /* gps_unpack() parses only text that starts with the object's brace. */
    char *text = line;
    while (*text == ' ' || *text == '\t' || *text == '\r' || *text == '\n') text++;
    geotrack_unpack_function parse;
    memcpy(&parse, &unpack, sizeof parse);
    (void)parse(text, data);
    out->kind = kind;

    const double nan = NAN;
    out->latitude = out->longitude = out->alt_hae = out->alt_msl = out->geoid_sep = nan;
    out->eph = out->epx = out->epy = out->epv = out->ept = out->sep = nan;
    out->speed = out->track = out->magnetic_track = out->magnetic_var = out->climb = nan;
    out->eps = out->epd = out->epc = nan;
    out->depth = out->dgps_age = nan;
    out->dgps_station = -1;
    out->wind_angle_magnetic = out->wind_angle_relative = out->wind_angle_true = nan;
    out->wind_speed_relative = out->wind_speed_true = nan;
    out->xdop = out->ydop = out->vdop = out->tdop = out->hdop = out->pdop = out->gdop = nan;
    out->heading = out->magnetic_heading = out->pitch = out->roll = out->yaw = nan;
    out->gst_rms = out->gst_major = out->gst_minor = out->gst_orient = nan;
    out->gst_lat = out->gst_lon = out->gst_alt = nan;
    switch (kind) {
    case GEOTRACK_KIND_TPV: {
        const struct gps_fix_t *fix = &data->fix;
        out->time = geotrack_time_from(fix->time);
        out->mode = fix->mode;
#if GPSD_API_MAJOR_VERSION >= 10
        out->status = fix->status;
#else
        out->status = data->status;
#endif
        out->latitude = geotrack_finite_or_nan(fix->latitude);
        out->longitude = geotrack_finite_or_nan(fix->longitude);
#if GPSD_API_MAJOR_VERSION >= 9
        out->alt_hae = geotrack_finite_or_nan(fix->altHAE);
        out->alt_msl = geotrack_finite_or_nan(fix->altMSL);
        out->geoid_sep = geotrack_finite_or_nan(fix->geoid_sep);
        out->magnetic_var = geotrack_finite_or_nan(fix->magnetic_var);
#else
        out->alt_msl = geotrack_finite_or_nan(fix->altitude);
#endif
        out->eph = geotrack_finite_or_nan(fix->eph);
#if GPSD_API_MAJOR_VERSION >= 8
        out->sep = geotrack_finite_or_nan(fix->sep);
#endif
        out->epx = geotrack_finite_or_nan(fix->epx);
        out->epy = geotrack_finite_or_nan(fix->epy);
        out->epv = geotrack_finite_or_nan(fix->epv);
        out->ept = geotrack_finite_or_nan(fix->ept);
        out->speed = geotrack_finite_or_nan(fix->speed);
        out->track = geotrack_finite_or_nan(fix->track);
        out->magnetic_track = geotrack_finite_or_nan(fix->magnetic_track);
        out->climb = geotrack_finite_or_nan(fix->climb);
        out->eps = geotrack_finite_or_nan(fix->eps);
        out->epd = geotrack_finite_or_nan(fix->epd);
        out->epc = geotrack_finite_or_nan(fix->epc);
#if GPSD_API_MAJOR_VERSION >= 9
        out->depth = geotrack_finite_or_nan(fix->depth);
        out->dgps_age = geotrack_finite_or_nan(fix->dgps_age);
        out->dgps_station = fix->dgps_station;
#endif
#if GPSD_API_MAJOR_VERSION >= 10
        out->wind_angle_magnetic = geotrack_finite_or_nan(fix->wanglem);
        out->wind_angle_relative = geotrack_finite_or_nan(fix->wangler);
        out->wind_angle_true = geotrack_finite_or_nan(fix->wanglet);
        out->wind_speed_relative = geotrack_finite_or_nan(fix->wspeedr);
        out->wind_speed_true = geotrack_finite_or_nan(fix->wspeedt);
#endif
        break;
    }
    case GEOTRACK_KIND_SKY:
        out->time = geotrack_time_from(data->skyview_time);
        out->xdop = geotrack_finite_or_nan(data->dop.xdop);
        out->ydop = geotrack_finite_or_nan(data->dop.ydop);
        out->vdop = geotrack_finite_or_nan(data->dop.vdop);
        out->tdop = geotrack_finite_or_nan(data->dop.tdop);
        out->hdop = geotrack_finite_or_nan(data->dop.hdop);
        out->pdop = geotrack_finite_or_nan(data->dop.pdop);
        out->gdop = geotrack_finite_or_nan(data->dop.gdop);
        break;
    case GEOTRACK_KIND_ATT:
#if GPSD_API_MAJOR_VERSION >= 9
        out->time = geotrack_time_from(data->attitude.mtime);
#endif
        out->heading = geotrack_finite_or_nan(data->attitude.heading);
#if GPSD_API_MAJOR_VERSION >= 14
        out->magnetic_heading = geotrack_finite_or_nan(data->attitude.mheading);
#endif
        out->pitch = geotrack_finite_or_nan(data->attitude.pitch);
        out->roll = geotrack_finite_or_nan(data->attitude.roll);
        out->yaw = geotrack_finite_or_nan(data->attitude.yaw);
        break;
    case GEOTRACK_KIND_GST:
        out->time = geotrack_time_from(data->gst.utctime);
        out->gst_rms = geotrack_finite_or_nan(data->gst.rms_deviation);
        out->gst_major = geotrack_finite_or_nan(data->gst.smajor_deviation);
        out->gst_minor = geotrack_finite_or_nan(data->gst.sminor_deviation);
        out->gst_orient = geotrack_finite_or_nan(data->gst.smajor_orientation);
        out->gst_lat = geotrack_finite_or_nan(data->gst.lat_err_deviation);
        out->gst_lon = geotrack_finite_or_nan(data->gst.lon_err_deviation);
        out->gst_alt = geotrack_finite_or_nan(data->gst.alt_err_deviation);
        break;
    case GEOTRACK_KIND_DEVICES: {
        int count = (int)data->devices.ndevices;
        int capacity = (int)(sizeof(data->devices.list) / sizeof(data->devices.list[0]));
        if (count < 0) count = 0;
        if (count > capacity) count = capacity;
        out->device_count = count;
        break;
    }
    case GEOTRACK_KIND_VERSION:
        out->proto_major = data->version.proto_major;
        out->proto_minor = data->version.proto_minor;
        break;
    default:
        break;
    }
    if (!out->time.present && sent_time) {
        /* A time was sent, and libgps made zero of it: present, and impossible. */
        out->time.present = true;
    }
    return kind;
}

/* The device that sent the last TPV, SKY, ATT or DEVICE message ("" when none). */
const char *geotrack_report_device(const struct gps_data_t *data) {
    return data->dev.path;
}

const char *geotrack_version_release(const struct gps_data_t *data) {
    return data->version.release;
}

const char *geotrack_version_revision(const struct gps_data_t *data) {
    return data->version.rev;
}

const char *geotrack_error_message(const struct gps_data_t *data) {
    return data->error;
}

/* How many satellite slots the last SKY message may have filled. */
int geotrack_satellite_capacity(const struct gps_data_t *data) {
    return (int)(sizeof(data->skyview) / sizeof(data->skyview[0]));
}

/* Copies slot `index` of the last SKY message; false when the slot is empty. */
bool geotrack_satellite_at(const struct gps_data_t *data, int index, geotrack_satellite *out) {
    if (index < 0 || index >= geotrack_satellite_capacity(data)) return false;
    const struct satellite_t *sat = &data->skyview[index];
    if (sat->PRN <= 0) return false;
    out->prn = sat->PRN;
    out->gnss_id = (int)sat->gnssid;
    out->sv_id = (int)sat->svid;
    out->sig_id = (int)sat->sigid;
    out->elevation = geotrack_finite_or_nan((double)sat->elevation);
    out->azimuth = geotrack_finite_or_nan((double)sat->azimuth);
    out->signal_strength = geotrack_finite_or_nan(sat->ss);
    out->used = sat->used;
#if GPSD_API_MAJOR_VERSION >= 9
    out->health = (int)sat->health;
#else
    out->health = 0;
#endif
    return true;
}

static geotrack_device geotrack_device_from(const struct devconfig_t *dev) {
    geotrack_device out;
    out.path = dev->path;
    out.driver = dev->driver;
    out.subtype = dev->subtype;
    out.activated = geotrack_time_from(dev->activated);
    out.bits_per_second = dev->baudrate;
    out.cycle = geotrack_cycle_from(dev->cycle);
    return out;
}

/* The receiver of the last DEVICE message. */
geotrack_device geotrack_device_current(const struct gps_data_t *data) {
    return geotrack_device_from(&data->dev);
}

/* Entry `index` of the last DEVICES message (index < device_count). */
geotrack_device geotrack_device_at(const struct gps_data_t *data, int index) {
    return geotrack_device_from(&data->devices.list[index]);
}

