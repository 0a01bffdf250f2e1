/*
 * cmosquitto.h -- GeoTrack's view of libmosquitto (the Eclipse Mosquitto client library).
 *
 * Swift code calls libmosquitto through these helpers only. They fix the options GeoTrack
 * relies on (MQTT 3.1.1, an exponential reconnect delay, a bounded in-flight window) in one
 * place, and keep version differences here:
 *   1.6  mosquitto_int_option() and MOSQ_OPT_PROTOCOL_VERSION as an int option.
 *   2.0  MOSQ_OPT_TLS_USE_OS_CERTS; mosquitto_connect_bind_v5 (not used).
 * Debian 12 ships 2.0.11, which is what this file is compiled and tested against. Releases
 * older than 1.6 are refused at compile time.
 *
 * Threads: the network loop runs on a thread this file starts (geotrack_mqtt_loop_start), not on
 * libmosquitto's own (mosquitto_loop_start): that one sleeps between reconnection attempts in a
 * select() that first drains its wake-up pipe, so a stop asked for just before it falls asleep
 * is not seen for up to the whole delay (30 s). Ours sleeps on a condition variable that a stop
 * signals, and a stop is bounded (geotrack_mqtt_loop_stop). Every callback set here is called on
 * that thread, never on Swift's cooperative pool.
 *
 * Loading: geotrack is not linked with libmosquitto. Loading it and OpenSSL behind it took a
 * millisecond and 1.7 MB at every start, and only publishing and `fleet` use it, so it is
 * opened with dlopen() when the first client is made (geotrack_mosquitto_load). Every call goes
 * through the table that fills; its entries have the types of the real prototypes, so the
 * compiler still checks each call against <mosquitto.h>.
 */
#ifndef GEOTRACK_CMOSQUITTO_SHIM_H
#define GEOTRACK_CMOSQUITTO_SHIM_H

#include <dlfcn.h>
#include <errno.h>
#include <mosquitto.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

/* glibc's, declared here so that the header does not depend on _GNU_SOURCE. */
extern int pthread_timedjoin_np(pthread_t thread, void **result, const struct timespec *deadline);

#if LIBMOSQUITTO_MAJOR < 1 || (LIBMOSQUITTO_MAJOR == 1 && LIBMOSQUITTO_MINOR < 6)
#error "GeoTrack needs libmosquitto 1.6 or newer: install a newer libmosquitto-dev"
#endif

/* The library's soname: the same for 1.6 and 2.0 (Debian's package libmosquitto1). */
#define GEOTRACK_MOSQUITTO_SONAME "libmosquitto.so.1"

/* The libmosquitto functions GeoTrack calls, resolved by geotrack_mosquitto_load(). */
typedef struct {
    __typeof__(&mosquitto_lib_init) lib_init;
    __typeof__(&mosquitto_new) new_client;
    __typeof__(&mosquitto_destroy) destroy;
    __typeof__(&mosquitto_int_option) int_option;
    __typeof__(&mosquitto_max_inflight_messages_set) max_inflight_messages_set;
    __typeof__(&mosquitto_connect_with_flags_callback_set) connect_with_flags_callback_set;
    __typeof__(&mosquitto_disconnect_callback_set) disconnect_callback_set;
    __typeof__(&mosquitto_publish_callback_set) publish_callback_set;
    __typeof__(&mosquitto_subscribe_callback_set) subscribe_callback_set;
    __typeof__(&mosquitto_message_callback_set) message_callback_set;
    __typeof__(&mosquitto_username_pw_set) username_pw_set;
    __typeof__(&mosquitto_tls_set) tls_set;
    __typeof__(&mosquitto_will_set) will_set;
    __typeof__(&mosquitto_connect_async) connect_async;
    __typeof__(&mosquitto_threaded_set) threaded_set;
    __typeof__(&mosquitto_loop) loop;
    __typeof__(&mosquitto_reconnect_async) reconnect_async;
    __typeof__(&mosquitto_disconnect) disconnect;
    __typeof__(&mosquitto_publish) publish;
    __typeof__(&mosquitto_subscribe) subscribe;
    __typeof__(&mosquitto_strerror) error_string;
} geotrack_mosquitto;

/*
 * Opens `soname` and fills `api`, then initialises the library. Returns NULL on success, or
 * what went wrong: dlerror()'s text, or the name of a function the library lacks. Call it once
 * per process; the library stays loaded.
 */
const char *geotrack_mosquitto_load(geotrack_mosquitto *api, const char *soname);

/* What the network thread tells Swift: one entry point, so Swift registers one C function. */
typedef enum {
    GEOTRACK_MQTT_CONNECTED = 1,    /* code: the broker's CONNACK return code (0 accepted);
                                       session_present: the CONNACK's flag */
    GEOTRACK_MQTT_DISCONNECTED = 2, /* code: 0 when asked for, else the reason */
    GEOTRACK_MQTT_PUBLISHED = 3,    /* message_id: the PUBACK's (QoS 1) */
    GEOTRACK_MQTT_MESSAGE = 4,      /* topic, payload, payload_length */
    GEOTRACK_MQTT_SUBSCRIBED = 5,   /* message_id: the SUBACK's */
    GEOTRACK_MQTT_FAILED = 6        /* code: why no connection could be made (see geotrack_mqtt_reportable) */
} geotrack_mqtt_event_kind;

typedef struct {
    geotrack_mqtt_event_kind kind;
    int code;
    int message_id;
    const char *topic;
    const void *payload;
    int payload_length;
    bool retained;
    bool session_present;
} geotrack_mqtt_event;

typedef void (*geotrack_mqtt_handler)(void *context, const geotrack_mqtt_event *event);

/* Reconnection: 1 s after a failure, doubling up to 30 s, back to 1 s once a broker accepts. */
#define GEOTRACK_MQTT_FIRST_DELAY 1u
#define GEOTRACK_MQTT_MAXIMUM_DELAY 30u

/*
 * The mosquitto instance's user data: where callbacks go (handler, context), and the network
 * loop's state. Set up with geotrack_mqtt_sink_init, torn down with geotrack_mqtt_sink_deinit
 * once the loop has stopped.
 */
typedef struct {
    geotrack_mqtt_handler handler;
    void *context;
    const geotrack_mosquitto *api;
    struct mosquitto *mosq;
    int timeout_ms;            /* how long one mosquitto_loop() may wait: the keep-alive */
    unsigned int delay;        /* the loop thread's only: seconds before the next attempt */
    bool running;              /* the starting and stopping thread's only */
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    bool stopping;             /* under lock */
} geotrack_mqtt_sink;

void geotrack_mqtt_sink_init(geotrack_mqtt_sink *sink, geotrack_mqtt_handler handler, void *context);

void geotrack_mqtt_sink_deinit(geotrack_mqtt_sink *sink);

void geotrack_mqtt_emit(void *obj, geotrack_mqtt_event event);

void geotrack_mqtt_on_connect(struct mosquitto *mosq, void *obj, int rc, int flags);

/*
 * A connection that failed in the system (MOSQ_ERR_ERRNO) says why only in errno, read here
 * first thing, on the thread that failed. Those that name something to check are told as a
 * GEOTRACK_MQTT_FAILED whose code is GEOTRACK_MQTT_ERRNO_BASE + errno, apart from libmosquitto's
 * own codes: refused (nothing listens on the port), no route to the host, no answer; and
 * EPROTO, libmosquitto's errno for a TLS connection the broker ended with an alert (a broker
 * that requires a client certificate and got none, or one it does not trust).
 */
#define GEOTRACK_MQTT_ERRNO_BASE 10000

/* A connect's result, with errno read at once when it says only MOSQ_ERR_ERRNO and errno says
   the broker ended the TLS handshake: GEOTRACK_MQTT_ERRNO_BASE + EPROTO. */
int geotrack_mqtt_connect_result(int rc);

void geotrack_mqtt_on_disconnect(struct mosquitto *mosq, void *obj, int rc);

void geotrack_mqtt_on_publish(struct mosquitto *mosq, void *obj, int mid);

void geotrack_mqtt_on_subscribe(struct mosquitto *mosq, void *obj, int mid, int count, const int *granted);

void geotrack_mqtt_on_message(struct mosquitto *mosq, void *obj, const struct mosquitto_message *message);

/*
 * A new client whose callbacks all go to `sink` (which must outlive it). A publisher uses a clean
 * session: what is not yet acknowledged stays in GeoTrack's outbox. A subscriber may keep its
 * session (clean_session false), so the broker queues its QoS 1 messages while it is away.
 * Returns NULL on failure (out of memory, or an empty id with clean_session false).
 */
struct mosquitto *geotrack_mqtt_new(const geotrack_mosquitto *api, const char *client_id,
                                                  bool clean_session, geotrack_mqtt_sink *sink, int max_inflight);

/* TLS: a CA file, and optionally a client certificate and key (PEM, the key unencrypted). */
int geotrack_mqtt_tls(const geotrack_mosquitto *api, struct mosquitto *mosq, const char *ca_file,
                                    const char *cert_file, const char *key_file);

/* Publishes `length` bytes; on success *message_id is what the PUBACK will carry. */
int geotrack_mqtt_publish(const geotrack_mosquitto *api, struct mosquitto *mosq, int *message_id,
                                        const char *topic, const void *payload, int length, int qos, bool retain);

/* The rest of what Swift calls, each a plain call through the table. */
void geotrack_mqtt_destroy(const geotrack_mosquitto *api, struct mosquitto *mosq);

int geotrack_mqtt_credentials(const geotrack_mosquitto *api, struct mosquitto *mosq,
                                            const char *username, const char *password);

int geotrack_mqtt_will(const geotrack_mosquitto *api, struct mosquitto *mosq, const char *topic,
                                     int length, const void *payload, int qos, bool retain);

/* Connects, or says why not (see geotrack_mqtt_connect_result). */
int geotrack_mqtt_connect_async(const geotrack_mosquitto *api, struct mosquitto *mosq,
                                              const char *host, int port, int keep_alive);

/*
 * Whether a failure to connect is worth telling: a TLS handshake that failed or a host name
 * not found say something about the configuration. A refused or lost connection is reported
 * by libmosquitto's disconnect callback already.
 */
bool geotrack_mqtt_reportable(int rc);

void geotrack_mqtt_report_failure(geotrack_mqtt_sink *sink, int rc);

bool geotrack_mqtt_loop_stopping(geotrack_mqtt_sink *sink);

struct timespec geotrack_mqtt_deadline(clockid_t clock, long milliseconds);

/* Sleeps `seconds`, or less if a stop is asked for; returns whether it was. */
bool geotrack_mqtt_loop_sleep(geotrack_mqtt_sink *sink, unsigned int seconds);

void *geotrack_mqtt_loop_main(void *context);

/*
 * Starts the network loop for `mosq`, whose user data is `sink`; call after connect_async (a
 * failed first connect is retried after the first delay). Returns 0 or pthread_create's error.
 */
int geotrack_mqtt_loop_start(const geotrack_mosquitto *api, struct mosquitto *mosq,
                                           geotrack_mqtt_sink *sink, int keep_alive_seconds);

/*
 * Asks the loop to stop, sends DISCONNECT if connected, and waits up to `grace_ms` for the loop
 * thread to end. Returns true when it ended (or never ran): `mosq` and `sink` may then be freed.
 * False means it is stuck in a blocking call (a name lookup): it ends by itself later, so the
 * caller must leave both allocated.
 */
bool geotrack_mqtt_loop_stop(geotrack_mqtt_sink *sink, long grace_ms);

int geotrack_mqtt_subscribe(const geotrack_mosquitto *api, struct mosquitto *mosq, int *message_id,
                                          const char *filter, int qos);

const char *geotrack_mqtt_strerror(const geotrack_mosquitto *api, int result);

#endif
