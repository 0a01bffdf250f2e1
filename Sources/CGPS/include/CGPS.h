#ifndef GEOTRACK_CGPS_H
#define GEOTRACK_CGPS_H

// GeoTrack's stable view of libgps, and the socket it reads gpsd from.
//
// libgps changes the layout of `struct gps_data_t` between releases. This header never shows
// it: CGPS.c, compiled against the gps.h of the libgps GeoTrack runs with, copies what GeoTrack
// needs into `geotrack_report`, whose layout does not depend on the libgps release, and hides
// the call signatures that changed. Every difference between libgps releases is in CGPS.c.
//
// geotrack is not linked with libgps.so: loading it, with the D-Bus, systemd and libgcrypt
// libraries behind it, took over a millisecond at every start, and only the commands that talk
// to gpsd parse its JSON. The one function GeoTrack calls, gps_unpack(), is looked up with
// dlopen() when the first connection opens (geotrack_libgps_load).

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

// libgps's scratch space while it parses a line: its layout is known to CGPS.c only.
struct gps_data_t;

/// What a gpsd message is.
typedef enum {
    GEOTRACK_KIND_NONE = 0,
    GEOTRACK_KIND_TPV = 1,
    GEOTRACK_KIND_SKY = 2,
    GEOTRACK_KIND_ATT = 3,
    GEOTRACK_KIND_DEVICES = 4,
    GEOTRACK_KIND_DEVICE = 5,
    GEOTRACK_KIND_VERSION = 6,
    GEOTRACK_KIND_ERROR = 7,
    GEOTRACK_KIND_OTHER = 8,     // WATCH, POLL, PPS...: not reported
    GEOTRACK_KIND_GST = 9
} geotrack_kind;

/// A time with presence: `present` is false when the message carried none.
typedef struct {
    bool present;
    int64_t seconds;
    int64_t nanoseconds;
} geotrack_time;

/// One message, copied out of gps_data_t. Every double is NaN when unknown.
typedef struct {
    geotrack_kind kind;
    geotrack_time time;          // TPV time, SKY time, ATT mtime, GST utctime

    // TPV
    int mode;                    // 0 not seen, 1 no fix, 2 2D, 3 3D
    int status;                  // 0 when unknown or absent
    double latitude, longitude;
    double alt_hae, alt_msl, geoid_sep;
    double eph, epx, epy, epv, ept, sep;
    double speed, track, magnetic_track, magnetic_var, climb;
    double eps, epd, epc;
    double depth;                // API 9+
    double dgps_age;             // API 9+; with dgps_station
    int dgps_station;            // API 9+; -1 when unknown
    double wind_angle_magnetic, wind_angle_relative, wind_angle_true; // API 10+
    double wind_speed_relative, wind_speed_true;                      // API 10+

    // SKY
    double xdop, ydop, vdop, tdop, hdop, pdop, gdop;

    // ATT
    double heading, magnetic_heading, pitch, roll, yaw;

    // GST: standard deviations in metres, the orientation in degrees
    double gst_rms, gst_major, gst_minor, gst_orient, gst_lat, gst_lon, gst_alt;

    // DEVICES
    int device_count;

    // VERSION
    int proto_major, proto_minor;
} geotrack_report;

/// One satellite of the last SKY message.
typedef struct {
    int prn;
    int gnss_id;
    int sv_id;
    int sig_id;                  // u-blox signal id; 0 for the first signal or none
    double elevation, azimuth, signal_strength; // NaN when unknown
    bool used;
    int health;                  // 0 unknown, 1 ok, 2 unhealthy (API 9+; 0 before)
} geotrack_satellite;

/// One receiver (DEVICE, or an entry of DEVICES). Strings point into gps_data_t and stay valid
/// until the next line is parsed with it.
typedef struct {
    const char *path;
    const char *driver;
    const char *subtype;
    geotrack_time activated;
    unsigned int bits_per_second;
    double cycle;                // seconds; NaN when unknown
} geotrack_device;

// MARK: connection
//
// GeoTrack owns the socket: gps_open() connects with a blocking connect(2) that nothing can
// interrupt (a peer that never answers holds it for the kernel's two minutes of SYN retries),
// and gps_read() frames lines in a buffer GeoTrack cannot bound or inspect. So CGPS connects
// without blocking, every wait also watches a wake-up descriptor, GeoTrack frames and checks
// each line, and libgps parses it with gps_unpack(), which needs no connection.

/// Connection failures that are not errno values: the name does not resolve.
#define GEOTRACK_CONNECT_NOHOST (-1)
/// Connection failures that are not errno values: the wake-up descriptor became readable.
#define GEOTRACK_CONNECT_WOKEN (-2)

/// Waits until `fd` is ready for `events` or `wake_fd` is readable. Returns 1 when `fd` is
/// ready (or in error or hung up), 0 when woken, -1 with errno on failure.
int geotrack_wait(int fd, short events, int wake_fd);

/// TCP keepalive on the connection to gpsd: probes after this many idle seconds…
#define GEOTRACK_KEEPALIVE_IDLE 15
/// …this many seconds apart…
#define GEOTRACK_KEEPALIVE_INTERVAL 5
/// …and the connection is given up (ETIMEDOUT) after this many go unanswered.
#define GEOTRACK_KEEPALIVE_COUNT 3

/// Connects to host:port over TCP without blocking in connect(2): each address is tried in
/// turn, and the wait for it watches `wake_fd`. On success returns 0 and the connected,
/// non-blocking, close-on-exec socket in *out_fd; otherwise the last errno, or
/// GEOTRACK_CONNECT_NOHOST, or GEOTRACK_CONNECT_WOKEN.
int geotrack_connect(const char *host, const char *port, int wake_fd, int *out_fd);

/// Sends all of `buffer` on the non-blocking socket, waiting for room as needed (never raising
/// SIGPIPE). Returns 0, GEOTRACK_CONNECT_WOKEN, or an errno value.
int geotrack_send_all(int fd, int wake_fd, const char *buffer, size_t length);

/// Reads what the non-blocking socket has, up to `length` bytes. Returns the count, 0 at the
/// end of the stream, or -1 with errno (EAGAIN when nothing is there yet).
ssize_t geotrack_receive(int fd, void *buffer, size_t length);

/// A pipe whose read end wakes geotrack_wait: both ends non-blocking and close-on-exec.
/// Returns 0, or -1 with errno.
int geotrack_wake_pipe(int fds[2]);

/// Makes the read end of a wake pipe readable for good (it is never drained).
void geotrack_wake(int write_fd);

/// Closes a socket GeoTrack opened.
void geotrack_close_socket(int fd);

// MARK: libgps

/// libgps's parser, gps_unpack(), as found in the library: called through geotrack_unpack only,
/// which knows its signature from gps.h (3.22 takes a `char *`, 3.25 a `const char *`).
typedef const void *geotrack_json_unpack;

/// The libgps API (GPSD_API_MAJOR_VERSION) of the gps.h CGPS was compiled with.
int geotrack_libgps_api(void);

/// The libgps to open: the soname of the release whose gps.h CGPS was compiled with, or the
/// path a build against another gpsd names (make build GPSD_PREFIX=DIR).
const char *geotrack_libgps_soname(void);

/// Opens `soname` and finds gps_unpack() in it. Returns NULL on success, or why not. Call it
/// once per process; a library it opens stays loaded. Nothing else is tried in its place: the
/// development link `libgps.so` may be another release, whose gps_data_t has another layout.
const char *geotrack_libgps_load(const char *soname, geotrack_json_unpack *unpack);

/// A zeroed gps_data_t for libgps to parse into, or NULL when memory is short. Free it with
/// geotrack_data_free.
struct gps_data_t *geotrack_data_create(void);

/// Frees what geotrack_data_create returned.
void geotrack_data_free(struct gps_data_t *data);

/// How many entries a DEVICES list may have: libgps fails to parse (and 3.22 loops on) more.
int geotrack_devices_capacity(void);

/// The size of the string field that a DEVICE key of `length` bytes at `key` fills, terminator
/// included; 0 for a key that is not a string field.
int geotrack_device_field_capacity(const char *key, size_t length);

/// Finds `"class":"NAME"` in a JSON line (gpsd writes no spaces, but allow them).
geotrack_kind geotrack_kind_of_message(const char *message);

/// Parses one gpsd JSON line (NUL-terminated, writable: libgps may modify it) into `out`,
/// with `data` as libgps's scratch space. Returns the line's kind.
geotrack_kind geotrack_unpack(geotrack_json_unpack unpack, struct gps_data_t *data, char *line,
                              geotrack_report *out);

/// The device that sent the last TPV, SKY, ATT or DEVICE message ("" when none).
const char *geotrack_report_device(const struct gps_data_t *data);

/// The release gpsd named in its last VERSION message.
const char *geotrack_version_release(const struct gps_data_t *data);

/// The revision gpsd named in its last VERSION message.
const char *geotrack_version_revision(const struct gps_data_t *data);

/// The text of gpsd's last ERROR message.
const char *geotrack_error_message(const struct gps_data_t *data);

/// How many satellite slots the last SKY message may have filled.
int geotrack_satellite_capacity(const struct gps_data_t *data);

/// Copies slot `index` of the last SKY message; false when the slot is empty.
bool geotrack_satellite_at(const struct gps_data_t *data, int index, geotrack_satellite *out);

/// The receiver of the last DEVICE message.
geotrack_device geotrack_device_current(const struct gps_data_t *data);

/// Entry `index` of the last DEVICES message (index < device_count).
geotrack_device geotrack_device_at(const struct gps_data_t *data, int index);

#endif // GEOTRACK_CGPS_H
