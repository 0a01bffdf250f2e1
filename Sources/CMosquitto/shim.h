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
 * Threads: libmosquitto runs its network loop on a thread of its own (mosquitto_loop_start);
 * every callback set here is called on that thread, never on Swift's cooperative pool.
 */
#ifndef GEOTRACK_CMOSQUITTO_SHIM_H
#define GEOTRACK_CMOSQUITTO_SHIM_H

#include <mosquitto.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if LIBMOSQUITTO_MAJOR < 1 || (LIBMOSQUITTO_MAJOR == 1 && LIBMOSQUITTO_MINOR < 6)
#error "GeoTrack needs libmosquitto 1.6 or newer: install a newer libmosquitto-dev"
#endif

/* What the network thread tells Swift: one entry point, so Swift registers one C function. */
typedef enum {
    GEOTRACK_MQTT_CONNECTED = 1,    /* code: the broker's CONNACK return code (0 accepted) */
    GEOTRACK_MQTT_DISCONNECTED = 2, /* code: 0 when asked for, else the reason */
    GEOTRACK_MQTT_PUBLISHED = 3,    /* message_id: the PUBACK's (QoS 1) */
    GEOTRACK_MQTT_MESSAGE = 4,      /* topic, payload, payload_length */
    GEOTRACK_MQTT_SUBSCRIBED = 5    /* message_id: the SUBACK's */
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

/* The handler and its context live in the mosquitto instance's user data. */
typedef struct {
    geotrack_mqtt_handler handler;
    void *context;
} geotrack_mqtt_sink;

static inline void geotrack_mqtt_emit(void *obj, geotrack_mqtt_event event) {
    const geotrack_mqtt_sink *sink = (const geotrack_mqtt_sink *)obj;
    if (sink && sink->handler) sink->handler(sink->context, &event);
}

static inline void geotrack_mqtt_on_connect(struct mosquitto *mosq, void *obj, int rc) {
    (void)mosq;
    geotrack_mqtt_event event = { GEOTRACK_MQTT_CONNECTED, rc, 0, NULL, NULL, 0, false };
    geotrack_mqtt_emit(obj, event);
}

static inline void geotrack_mqtt_on_disconnect(struct mosquitto *mosq, void *obj, int rc) {
    (void)mosq;
    geotrack_mqtt_event event = { GEOTRACK_MQTT_DISCONNECTED, rc, 0, NULL, NULL, 0, false };
    geotrack_mqtt_emit(obj, event);
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

/* Once per process, before any instance; libmosquitto counts calls, so repeats are harmless. */
static inline void geotrack_mqtt_library_init(void) {
    mosquitto_lib_init();
}

/*
 * A new client whose callbacks all go to `sink` (which must outlive it). A publisher uses a clean
 * session: what is not yet acknowledged stays in GeoTrack's outbox. A subscriber may keep its
 * session (clean_session false), so the broker queues its QoS 1 messages while it is away.
 * Returns NULL on failure (out of memory, or an empty id with clean_session false).
 */
static inline struct mosquitto *geotrack_mqtt_new(const char *client_id, bool clean_session, geotrack_mqtt_sink *sink,
                                                  int max_inflight) {
    struct mosquitto *mosq = mosquitto_new(client_id, clean_session, sink);
    if (!mosq) return NULL;
    mosquitto_int_option(mosq, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V311);
    mosquitto_max_inflight_messages_set(mosq, (unsigned int)max_inflight);
    mosquitto_connect_callback_set(mosq, geotrack_mqtt_on_connect);
    mosquitto_disconnect_callback_set(mosq, geotrack_mqtt_on_disconnect);
    mosquitto_publish_callback_set(mosq, geotrack_mqtt_on_publish);
    mosquitto_subscribe_callback_set(mosq, geotrack_mqtt_on_subscribe);
    mosquitto_message_callback_set(mosq, geotrack_mqtt_on_message);
    return mosq;
}

/* TLS: a CA file, and optionally a client certificate and key (PEM, the key unencrypted). */
static inline int geotrack_mqtt_tls(struct mosquitto *mosq, const char *ca_file, const char *cert_file, const char *key_file) {
    return mosquitto_tls_set(mosq, ca_file, NULL, cert_file, key_file, NULL);
}

/* Publishes `length` bytes; on success *message_id is what the PUBACK will carry. */
static inline int geotrack_mqtt_publish(struct mosquitto *mosq, int *message_id, const char *topic,
                                        const void *payload, int length, int qos, bool retain) {
    return mosquitto_publish(mosq, message_id, topic, length, payload, qos, retain);
}

#endif
