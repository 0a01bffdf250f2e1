/*
 * shim.h -- GeoTrack's view of libmosquitto (the Eclipse Mosquitto client library).
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
    __typeof__(&mosquitto_connect_callback_set) connect_callback_set;
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
static inline const char *geotrack_mosquitto_load(geotrack_mosquitto *api, const char *soname) {
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!library) return dlerror();
#define GEOTRACK_MOSQUITTO_RESOLVE(field, name) \
    if (!(*(void **)&api->field = dlsym(library, name))) { dlclose(library); return name; }
    GEOTRACK_MOSQUITTO_RESOLVE(lib_init, "mosquitto_lib_init")
    GEOTRACK_MOSQUITTO_RESOLVE(new_client, "mosquitto_new")
    GEOTRACK_MOSQUITTO_RESOLVE(destroy, "mosquitto_destroy")
    GEOTRACK_MOSQUITTO_RESOLVE(int_option, "mosquitto_int_option")
    GEOTRACK_MOSQUITTO_RESOLVE(max_inflight_messages_set, "mosquitto_max_inflight_messages_set")
    GEOTRACK_MOSQUITTO_RESOLVE(connect_callback_set, "mosquitto_connect_callback_set")
    GEOTRACK_MOSQUITTO_RESOLVE(disconnect_callback_set, "mosquitto_disconnect_callback_set")
    GEOTRACK_MOSQUITTO_RESOLVE(publish_callback_set, "mosquitto_publish_callback_set")
    GEOTRACK_MOSQUITTO_RESOLVE(subscribe_callback_set, "mosquitto_subscribe_callback_set")
    GEOTRACK_MOSQUITTO_RESOLVE(message_callback_set, "mosquitto_message_callback_set")
    GEOTRACK_MOSQUITTO_RESOLVE(username_pw_set, "mosquitto_username_pw_set")
    GEOTRACK_MOSQUITTO_RESOLVE(tls_set, "mosquitto_tls_set")
    GEOTRACK_MOSQUITTO_RESOLVE(will_set, "mosquitto_will_set")
    GEOTRACK_MOSQUITTO_RESOLVE(connect_async, "mosquitto_connect_async")
    GEOTRACK_MOSQUITTO_RESOLVE(threaded_set, "mosquitto_threaded_set")
    GEOTRACK_MOSQUITTO_RESOLVE(loop, "mosquitto_loop")
    GEOTRACK_MOSQUITTO_RESOLVE(reconnect_async, "mosquitto_reconnect_async")
    GEOTRACK_MOSQUITTO_RESOLVE(disconnect, "mosquitto_disconnect")
    GEOTRACK_MOSQUITTO_RESOLVE(publish, "mosquitto_publish")
    GEOTRACK_MOSQUITTO_RESOLVE(subscribe, "mosquitto_subscribe")
    GEOTRACK_MOSQUITTO_RESOLVE(error_string, "mosquitto_strerror")
#undef GEOTRACK_MOSQUITTO_RESOLVE
    api->lib_init();
    return NULL;
}

/* What the network thread tells Swift: one entry point, so Swift registers one C function. */
typedef enum {
    GEOTRACK_MQTT_CONNECTED = 1,    /* code: the broker's CONNACK return code (0 accepted) */
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

static inline void geotrack_mqtt_sink_init(geotrack_mqtt_sink *sink, geotrack_mqtt_handler handler, void *context) {
    memset(sink, 0, sizeof *sink);
    sink->handler = handler;
    sink->context = context;
    sink->delay = GEOTRACK_MQTT_FIRST_DELAY;
    pthread_mutex_init(&sink->lock, NULL);
    pthread_condattr_t attributes;
    pthread_condattr_init(&attributes);
    /* Delays are measured on the monotonic clock: setting the wall clock does not stretch them. */
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
    pthread_cond_init(&sink->wake, &attributes);
    pthread_condattr_destroy(&attributes);
}

static inline void geotrack_mqtt_sink_deinit(geotrack_mqtt_sink *sink) {
    pthread_cond_destroy(&sink->wake);
    pthread_mutex_destroy(&sink->lock);
}

static inline void geotrack_mqtt_emit(void *obj, geotrack_mqtt_event event) {
    const geotrack_mqtt_sink *sink = (const geotrack_mqtt_sink *)obj;
    if (sink && sink->handler) sink->handler(sink->context, &event);
}

static inline void geotrack_mqtt_on_connect(struct mosquitto *mosq, void *obj, int rc) {
    (void)mosq;
    /* Called on the loop thread, the delay's only user. */
    if (rc == 0 && obj) ((geotrack_mqtt_sink *)obj)->delay = GEOTRACK_MQTT_FIRST_DELAY;
    geotrack_mqtt_event event = { GEOTRACK_MQTT_CONNECTED, rc, 0, NULL, NULL, 0, false };
    geotrack_mqtt_emit(obj, event);
}

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
static inline int geotrack_mqtt_connect_result(int rc) {
    if (rc == MOSQ_ERR_ERRNO && errno == EPROTO) return GEOTRACK_MQTT_ERRNO_BASE + EPROTO;
    return rc;
}

static inline void geotrack_mqtt_on_disconnect(struct mosquitto *mosq, void *obj, int rc) {
    (void)mosq;
    int error = errno;
    geotrack_mqtt_event event = { GEOTRACK_MQTT_DISCONNECTED, rc, 0, NULL, NULL, 0, false };
    geotrack_mqtt_emit(obj, event);
    /* Under TLS 1.3 the client's side of the handshake ends before the broker has checked the
       client's certificate: its refusal arrives as an alert on the first read, which libmosquitto
       tells as a lost connection (MOSQ_ERR_CONN_LOST) with errno EPROTO. */
    bool refused_tls = (rc == MOSQ_ERR_ERRNO || rc == MOSQ_ERR_CONN_LOST) && error == EPROTO;
    if (refused_tls || (rc == MOSQ_ERR_ERRNO && (error == ECONNREFUSED || error == EHOSTUNREACH || error == ENETUNREACH
                                                 || error == ETIMEDOUT))) {
        geotrack_mqtt_event failed = { GEOTRACK_MQTT_FAILED, GEOTRACK_MQTT_ERRNO_BASE + error, 0, NULL, NULL, 0, false };
        geotrack_mqtt_emit(obj, failed);
    }
}

static inline void geotrack_mqtt_on_publish(struct mosquitto *mosq, void *obj, int mid) {
    (void)mosq;
    geotrack_mqtt_event event = { GEOTRACK_MQTT_PUBLISHED, 0, mid, NULL, NULL, 0, false };
    geotrack_mqtt_emit(obj, event);
}

static inline void geotrack_mqtt_on_subscribe(struct mosquitto *mosq, void *obj, int mid, int count, const int *granted) {
    (void)mosq; (void)count; (void)granted;
    geotrack_mqtt_event event = { GEOTRACK_MQTT_SUBSCRIBED, 0, mid, NULL, NULL, 0, false };
    geotrack_mqtt_emit(obj, event);
}

static inline void geotrack_mqtt_on_message(struct mosquitto *mosq, void *obj, const struct mosquitto_message *message) {
    (void)mosq;
    geotrack_mqtt_event event = { GEOTRACK_MQTT_MESSAGE, 0, message->mid, message->topic,
                                  message->payload, message->payloadlen, message->retain };
    geotrack_mqtt_emit(obj, event);
}

/*
 * A new client whose callbacks all go to `sink` (which must outlive it). A publisher uses a clean
 * session: what is not yet acknowledged stays in GeoTrack's outbox. A subscriber may keep its
 * session (clean_session false), so the broker queues its QoS 1 messages while it is away.
 * Returns NULL on failure (out of memory, or an empty id with clean_session false).
 */
static inline struct mosquitto *geotrack_mqtt_new(const geotrack_mosquitto *api, const char *client_id,
                                                  bool clean_session, geotrack_mqtt_sink *sink, int max_inflight) {
    struct mosquitto *mosq = api->new_client(client_id, clean_session, sink);
    if (!mosq) return NULL;
    api->int_option(mosq, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V311);
    api->max_inflight_messages_set(mosq, (unsigned int)max_inflight);
    api->connect_callback_set(mosq, geotrack_mqtt_on_connect);
    api->disconnect_callback_set(mosq, geotrack_mqtt_on_disconnect);
    api->publish_callback_set(mosq, geotrack_mqtt_on_publish);
    api->subscribe_callback_set(mosq, geotrack_mqtt_on_subscribe);
    api->message_callback_set(mosq, geotrack_mqtt_on_message);
    return mosq;
}

/* TLS: a CA file, and optionally a client certificate and key (PEM, the key unencrypted). */
static inline int geotrack_mqtt_tls(const geotrack_mosquitto *api, struct mosquitto *mosq, const char *ca_file,
                                    const char *cert_file, const char *key_file) {
    return api->tls_set(mosq, ca_file, NULL, cert_file, key_file, NULL);
}

/* Publishes `length` bytes; on success *message_id is what the PUBACK will carry. */
static inline int geotrack_mqtt_publish(const geotrack_mosquitto *api, struct mosquitto *mosq, int *message_id,
                                        const char *topic, const void *payload, int length, int qos, bool retain) {
    return api->publish(mosq, message_id, topic, length, payload, qos, retain);
}

/* The rest of what Swift calls, each a plain call through the table. */
static inline void geotrack_mqtt_destroy(const geotrack_mosquitto *api, struct mosquitto *mosq) {
    api->destroy(mosq);
}

static inline int geotrack_mqtt_credentials(const geotrack_mosquitto *api, struct mosquitto *mosq,
                                            const char *username, const char *password) {
    return api->username_pw_set(mosq, username, password);
}

static inline int geotrack_mqtt_will(const geotrack_mosquitto *api, struct mosquitto *mosq, const char *topic,
                                     int length, const void *payload, int qos, bool retain) {
    return api->will_set(mosq, topic, length, payload, qos, retain);
}

/* Connects, or says why not (see geotrack_mqtt_connect_result). */
static inline int geotrack_mqtt_connect_async(const geotrack_mosquitto *api, struct mosquitto *mosq,
                                              const char *host, int port, int keep_alive) {
    return geotrack_mqtt_connect_result(api->connect_async(mosq, host, port, keep_alive));
}

/*
 * Whether a failure to connect is worth telling: a TLS handshake that failed or a host name
 * not found say something about the configuration. A refused or lost connection is reported
 * by libmosquitto's disconnect callback already.
 */
static inline bool geotrack_mqtt_reportable(int rc) {
    /* 2.0.11 says MOSQ_ERR_EAI (getaddrinfo failed) for a name not found; MOSQ_ERR_LOOKUP is
       what SOCKS and older releases say. Both mean the same to the user. */
    return rc == MOSQ_ERR_TLS || rc == MOSQ_ERR_TLS_HANDSHAKE || rc == MOSQ_ERR_LOOKUP || rc == MOSQ_ERR_EAI
        || rc == GEOTRACK_MQTT_ERRNO_BASE + EPROTO;
}

static inline void geotrack_mqtt_report_failure(geotrack_mqtt_sink *sink, int rc) {
    if (!geotrack_mqtt_reportable(rc)) return;
    geotrack_mqtt_event event = { GEOTRACK_MQTT_FAILED, rc, 0, NULL, NULL, 0, false };
    geotrack_mqtt_emit(sink, event);
}

static inline bool geotrack_mqtt_loop_stopping(geotrack_mqtt_sink *sink) {
    pthread_mutex_lock(&sink->lock);
    bool stopping = sink->stopping;
    pthread_mutex_unlock(&sink->lock);
    return stopping;
}

static inline struct timespec geotrack_mqtt_deadline(clockid_t clock, long milliseconds) {
    struct timespec deadline;
    clock_gettime(clock, &deadline);
    deadline.tv_sec += milliseconds / 1000;
    deadline.tv_nsec += (milliseconds % 1000) * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) {
        deadline.tv_sec += 1;
        deadline.tv_nsec -= 1000000000L;
    }
    return deadline;
}

/* Sleeps `seconds`, or less if a stop is asked for; returns whether it was. */
static inline bool geotrack_mqtt_loop_sleep(geotrack_mqtt_sink *sink, unsigned int seconds) {
    struct timespec deadline = geotrack_mqtt_deadline(CLOCK_MONOTONIC, (long)seconds * 1000L);
    pthread_mutex_lock(&sink->lock);
    while (!sink->stopping) {
        if (pthread_cond_timedwait(&sink->wake, &sink->lock, &deadline) == ETIMEDOUT) break;
    }
    bool stopping = sink->stopping;
    pthread_mutex_unlock(&sink->lock);
    return stopping;
}

static inline void *geotrack_mqtt_loop_main(void *context) {
    geotrack_mqtt_sink *sink = (geotrack_mqtt_sink *)context;
    for (;;) {
        bool stopping = geotrack_mqtt_loop_stopping(sink);
        /* Once stopping, short waits: the DISCONNECT is written and the socket closed within
           a few turns, or the stop's deadline ends the wait. */
        int rc = sink->api->loop(sink->mosq, stopping ? 50 : sink->timeout_ms, 1);
        if (rc == MOSQ_ERR_SUCCESS) continue;
        if (stopping || geotrack_mqtt_loop_stopping(sink)) break;
        geotrack_mqtt_report_failure(sink, rc);
        if (geotrack_mqtt_loop_sleep(sink, sink->delay)) break;
        sink->delay = sink->delay * 2 > GEOTRACK_MQTT_MAXIMUM_DELAY ? GEOTRACK_MQTT_MAXIMUM_DELAY : sink->delay * 2;
        /* Otherwise a failure shows in the next mosquitto_loop(), which then waits the next delay. */
        geotrack_mqtt_report_failure(sink, geotrack_mqtt_connect_result(sink->api->reconnect_async(sink->mosq)));
    }
    return NULL;
}

/*
 * Starts the network loop for `mosq`, whose user data is `sink`; call after connect_async (a
 * failed first connect is retried after the first delay). Returns 0 or pthread_create's error.
 */
static inline int geotrack_mqtt_loop_start(const geotrack_mosquitto *api, struct mosquitto *mosq,
                                           geotrack_mqtt_sink *sink, int keep_alive_seconds) {
    sink->api = api;
    sink->mosq = mosq;
    sink->timeout_ms = keep_alive_seconds > 0 ? keep_alive_seconds * 1000 : 1000 * 86400;
    /* Publishing from other threads then only queues, and wakes the loop to write. */
    api->threaded_set(mosq, true);
    int rc = pthread_create(&sink->thread, NULL, geotrack_mqtt_loop_main, sink);
    sink->running = rc == 0;
    return rc;
}

/*
 * Asks the loop to stop, sends DISCONNECT if connected, and waits up to `grace_ms` for the loop
 * thread to end. Returns true when it ended (or never ran): `mosq` and `sink` may then be freed.
 * False means it is stuck in a blocking call (a name lookup): it ends by itself later, so the
 * caller must leave both allocated.
 */
static inline bool geotrack_mqtt_loop_stop(geotrack_mqtt_sink *sink, long grace_ms) {
    pthread_mutex_lock(&sink->lock);
    sink->stopping = true;
    pthread_cond_signal(&sink->wake);
    pthread_mutex_unlock(&sink->lock);
    if (!sink->running) return true;
    /* Queues DISCONNECT and wakes the loop's select(); not connected, it only sets the state. */
    sink->api->disconnect(sink->mosq);
    struct timespec deadline = geotrack_mqtt_deadline(CLOCK_REALTIME, grace_ms);
    if (pthread_timedjoin_np(sink->thread, NULL, &deadline) != 0) {
        pthread_detach(sink->thread);
        return false;
    }
    sink->running = false;
    return true;
}

static inline int geotrack_mqtt_subscribe(const geotrack_mosquitto *api, struct mosquitto *mosq, int *message_id,
                                          const char *filter, int qos) {
    return api->subscribe(mosq, message_id, filter, qos);
}

static inline const char *geotrack_mqtt_strerror(const geotrack_mosquitto *api, int result) {
    return api->error_string(result);
}

#endif
