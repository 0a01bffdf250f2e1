/*
 * shim.h -- GeoTrack's stable view of libgps.
 *
 * libgps changes the layout of `struct gps_data_t` between releases. Swift code
 * never reads that struct: these helpers copy what GeoTrack needs into
 * `geotrack_report`, a small struct whose layout does not depend on the libgps
 * release, and hide call signatures that changed.
 *
 * Where a field moved, the branch is chosen with GPSD_API_MAJOR_VERSION, after
 * the change list at the top of gpsd's include/gps.h:
 *   API 7  gps_read() gained (message, message_len).
 *   API 8  gps_fix_t gained sep (spherical error).
 *   API 9  gps_fix_t.time, skyview_time, devices.time and devconfig_t.activated
 *          and cycle became timespec_t (before: double seconds); altHAE, altMSL,
 *          geoid_sep and magnetic_var were added to gps_fix_t (before: altitude
 *          was MSL); satellite elevation/azimuth became doubles with NaN for unknown.
 *   API 10 gps_data_t.status moved to gps_fix_t.status.
 *   API 12 attitude moved out of gps_data_t's anonymous union (same member name).
 *   API 14 gps_fd became gps_fd_t (socket_t is intptr_t); gps_stream() takes
 *          (watch_t, const char *); attitude_t gained mheading.
 *   API 16 satellites_visible and devices.ndevices became unsigned, MAXUSERDEVS
 *          became configurable (read through the macro, as here).
 * Debian 12 ships API 11 (gpsd 3.22), which is what this file is compiled and
 * tested against. APIs older than 7 are refused at compile time.
 */
#ifndef GEOTRACK_CGPS_SHIM_H
#define GEOTRACK_CGPS_SHIM_H

#include <gps.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

#if GPSD_API_MAJOR_VERSION < 7
#error "GeoTrack needs libgps API 7 or newer (gpsd 3.18+): install a newer libgps-dev"
#endif

/* The JSON class of one gpsd message. */
typedef enum {
    GEOTRACK_KIND_NONE = 0,      /* nothing decoded (partial line) */
    GEOTRACK_KIND_TPV = 1,
    GEOTRACK_KIND_SKY = 2,
    GEOTRACK_KIND_ATT = 3,
    GEOTRACK_KIND_DEVICES = 4,
    GEOTRACK_KIND_DEVICE = 5,
    GEOTRACK_KIND_VERSION = 6,
    GEOTRACK_KIND_ERROR = 7,
    GEOTRACK_KIND_OTHER = 8      /* WATCH, POLL, GST, PPS...: not reported */
} geotrack_kind;

/* A time with presence: `present` is false when the message carried none. */
typedef struct {
    bool present;
    int64_t seconds;
    int64_t nanoseconds;
} geotrack_time;

/* One message, copied out of gps_data_t. Every double is NaN when unknown. */
typedef struct {
    geotrack_kind kind;
    geotrack_time time;          /* TPV time, SKY time, ATT mtime */

    /* TPV */
    int mode;                    /* 0 not seen, 1 no fix, 2 2D, 3 3D */
    int status;                  /* 0 when unknown or absent */
    double latitude, longitude;
    double alt_hae, alt_msl, geoid_sep;
    double eph, epx, epy, epv, ept, sep;
    double speed, track, magnetic_track, magnetic_var, climb;
    double eps, epd, epc;

    /* SKY */
    double xdop, ydop, vdop, tdop, hdop, pdop, gdop;

    /* ATT */
    double heading, magnetic_heading, pitch, roll, yaw;

    /* DEVICES */
    int device_count;

    /* VERSION */
    int proto_major, proto_minor;
} geotrack_report;

/* One satellite of the last SKY message. */
typedef struct {
    int prn;
    int gnss_id;
    int sv_id;
    double elevation, azimuth, signal_strength; /* NaN when unknown */
    bool used;
} geotrack_satellite;

/* One receiver (DEVICE, or an entry of DEVICES). Strings point into gps_data_t
 * and stay valid until the next read. */
typedef struct {
    const char *path;
    const char *driver;
    const char *subtype;
    geotrack_time activated;
    unsigned int bits_per_second;
    double cycle;                /* seconds; NaN when unknown */
} geotrack_device;

/* MARK: helpers */

static inline double geotrack_finite_or_nan(double value) {
    return isfinite(value) ? value : NAN;
}

#if GPSD_API_MAJOR_VERSION >= 9
static inline geotrack_time geotrack_time_from(timespec_t ts) {
    geotrack_time t;
    t.present = (ts.tv_sec != 0 || ts.tv_nsec != 0);
    t.seconds = (int64_t)ts.tv_sec;
    t.nanoseconds = (int64_t)ts.tv_nsec;
    return t;
}
static inline double geotrack_seconds_from(timespec_t ts) {
    if (ts.tv_sec == 0 && ts.tv_nsec == 0) return NAN;
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
#else
/* Before API 9 times were doubles of Unix seconds, NaN or 0 when absent. */
static inline geotrack_time geotrack_time_from(double seconds) {
    geotrack_time t;
    t.present = isfinite(seconds) && seconds != 0;
    if (!t.present) { t.seconds = 0; t.nanoseconds = 0; return t; }
    double whole = floor(seconds);
    t.seconds = (int64_t)whole;
    t.nanoseconds = (int64_t)llround((seconds - whole) * 1e9);
    if (t.nanoseconds >= 1000000000) { t.seconds += 1; t.nanoseconds -= 1000000000; }
    return t;
}
static inline double geotrack_seconds_from(double seconds) {
    return (isfinite(seconds) && seconds != 0) ? seconds : NAN;
}
#endif

/* Finds `"class":"NAME"` in a JSON line (gpsd writes no spaces, but allow them). */
static inline geotrack_kind geotrack_kind_of_message(const char *message) {
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
    if (n == 7 && strncmp(p, "DEVICES", 7) == 0) return GEOTRACK_KIND_DEVICES;
    if (n == 6 && strncmp(p, "DEVICE", 6) == 0) return GEOTRACK_KIND_DEVICE;
    if (n == 7 && strncmp(p, "VERSION", 7) == 0) return GEOTRACK_KIND_VERSION;
    if (n == 5 && strncmp(p, "ERROR", 5) == 0) return GEOTRACK_KIND_ERROR;
    return GEOTRACK_KIND_OTHER;
}

/* When the message buffer came back empty, this read's set bits decide. */
static inline geotrack_kind geotrack_kind_of_mask(gps_mask_t set) {
    if (set & VERSION_SET) return GEOTRACK_KIND_VERSION;
    if (set & DEVICELIST_SET) return GEOTRACK_KIND_DEVICES;
    if (set & DEVICE_SET) return GEOTRACK_KIND_DEVICE;
    if (set & ERROR_SET) return GEOTRACK_KIND_ERROR;
    if (set & ATTITUDE_SET) return GEOTRACK_KIND_ATT;
    if (set & SATELLITE_SET) return GEOTRACK_KIND_SKY;
    if (set & (MODE_SET | LATLON_SET | TIME_SET)) return GEOTRACK_KIND_TPV;
    return GEOTRACK_KIND_OTHER;
}

/* MARK: connection */

/* Opens a connection to gpsd. Returns 0, or the libgps error code (see
 * geotrack_open_error_*). The caller owns `data` (a fixed address). */
static inline int geotrack_open(const char *host, const char *port, struct gps_data_t *data) {
    memset(data, 0, sizeof(*data));
    errno = 0;
    if (gps_open(host, port, data) != 0) {
        return errno != 0 ? errno : -1;
    }
    return 0;
}

/* libgps's open failures (netlib codes, negative errno values). */
static inline bool geotrack_open_error_is_host(int code) { return code == NL_NOHOST || code == NL_NOSERVICE; }
static inline bool geotrack_open_error_is_refused(int code) { return code == NL_NOCONNECT; }

/* Asks gpsd to stream JSON reports, from one device or all of them. */
static inline int geotrack_watch(struct gps_data_t *data, const char *device) {
    unsigned int flags = WATCH_ENABLE | WATCH_JSON;
    if (device != NULL) flags |= WATCH_DEVICE;
#if GPSD_API_MAJOR_VERSION >= 14
    return gps_stream(data, (watch_t)flags, device);
#else
    return gps_stream(data, flags, (void *)device);
#endif
}

/* The socket, as an int whatever libgps's type for it. */
static inline int geotrack_fd(const struct gps_data_t *data) {
    return (int)data->gps_fd;
}

/* True when a message is already buffered or the socket is readable now. */
static inline bool geotrack_buffered(const struct gps_data_t *data) {
    return gps_waiting(data, 0);
}

/* Blocks until the socket is readable, hung up, or in error: no timeout, no
 * busy-wait. Returns poll's result (-1 with errno on failure). */
static inline int geotrack_wait_readable(const struct gps_data_t *data) {
    struct pollfd pfd;
    pfd.fd = (int)data->gps_fd;
    pfd.events = POLLIN;
    pfd.revents = 0;
    int r;
    do {
        r = poll(&pfd, 1, -1);
    } while (r < 0 && errno == EINTR);
    return r;
}

/* Wakes a thread blocked in geotrack_wait_readable or in a read on this socket. */
static inline int geotrack_shutdown(int fd) {
    return shutdown(fd, SHUT_RDWR);
}

static inline int geotrack_close(struct gps_data_t *data) {
    return gps_close(data);
}

static inline const char *geotrack_errstr(int code) {
    return gps_errstr(code);
}

/* MARK: reading */

/* Reads one gpsd message into `out`. Returns gps_read's result: -1 on error or
 * end of stream (errno says which; 0 for end), 0 when no complete message was
 * available, >0 when `out` describes exactly that one message.
 *
 * libgps accumulates `set` and leaves fields of older messages in place, so
 * `set`, the fix time and the device records are cleared before every read,
 * and the kind comes from this message's own class. */
static inline int geotrack_read(struct gps_data_t *data, char *message, int message_len,
                                geotrack_report *out) {
    memset(out, 0, sizeof(*out));
    out->kind = GEOTRACK_KIND_NONE;
    data->set = 0;
    /* A DEVICE or DEVICES message may leave out fields (driver, activated...). */
    memset(&data->dev, 0, sizeof(data->dev));
    memset(&data->devices, 0, sizeof(data->devices));
#if GPSD_API_MAJOR_VERSION >= 9
    data->fix.time.tv_sec = 0;
    data->fix.time.tv_nsec = 0;
#else
    data->fix.time = NAN;
#endif
    if (message_len > 0) message[0] = '\0';
    errno = 0;
    int status = gps_read(data, message, message_len);
    if (status <= 0) return status;

    geotrack_kind kind = (message_len > 0 && message[0] != '\0')
        ? geotrack_kind_of_message(message)
        : geotrack_kind_of_mask(data->set);
    out->kind = kind;

    const double nan = NAN;
    out->latitude = out->longitude = out->alt_hae = out->alt_msl = out->geoid_sep = nan;
    out->eph = out->epx = out->epy = out->epv = out->ept = out->sep = nan;
    out->speed = out->track = out->magnetic_track = out->magnetic_var = out->climb = nan;
    out->eps = out->epd = out->epc = nan;
    out->xdop = out->ydop = out->vdop = out->tdop = out->hdop = out->pdop = out->gdop = nan;
    out->heading = out->magnetic_heading = out->pitch = out->roll = out->yaw = nan;

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
    return status;
}

/* The device that sent the last TPV, SKY, ATT or DEVICE message ("" when none). */
static inline const char *geotrack_report_device(const struct gps_data_t *data) {
    return data->dev.path;
}

static inline const char *geotrack_version_release(const struct gps_data_t *data) {
    return data->version.release;
}

static inline const char *geotrack_version_revision(const struct gps_data_t *data) {
    return data->version.rev;
}

static inline const char *geotrack_error_message(const struct gps_data_t *data) {
    return data->error;
}

/* How many satellite slots the last SKY message may have filled. */
static inline int geotrack_satellite_capacity(const struct gps_data_t *data) {
    return (int)(sizeof(data->skyview) / sizeof(data->skyview[0]));
}

/* Copies slot `index` of the last SKY message; false when the slot is empty. */
static inline bool geotrack_satellite_at(const struct gps_data_t *data, int index,
                                         geotrack_satellite *out) {
    if (index < 0 || index >= geotrack_satellite_capacity(data)) return false;
    const struct satellite_t *sat = &data->skyview[index];
    if (sat->PRN <= 0) return false;
    out->prn = sat->PRN;
    out->gnss_id = (int)sat->gnssid;
    out->sv_id = (int)sat->svid;
    out->elevation = geotrack_finite_or_nan((double)sat->elevation);
    out->azimuth = geotrack_finite_or_nan((double)sat->azimuth);
    out->signal_strength = geotrack_finite_or_nan(sat->ss);
    out->used = sat->used;
    return true;
}

static inline geotrack_device geotrack_device_from(const struct devconfig_t *dev) {
    geotrack_device out;
    out.path = dev->path;
    out.driver = dev->driver;
    out.subtype = dev->subtype;
    out.activated = geotrack_time_from(dev->activated);
    out.bits_per_second = dev->baudrate;
    out.cycle = geotrack_seconds_from(dev->cycle);
    return out;
}

/* The receiver of the last DEVICE message. */
static inline geotrack_device geotrack_device_current(const struct gps_data_t *data) {
    return geotrack_device_from(&data->dev);
}

/* Entry `index` of the last DEVICES message (index < device_count). */
static inline geotrack_device geotrack_device_at(const struct gps_data_t *data, int index) {
    return geotrack_device_from(&data->devices.list[index]);
}

#endif /* GEOTRACK_CGPS_SHIM_H */
