/*
 * cmosquitto.c -- loading libmosquitto and the calls Swift makes through it (see cmosquitto.h).
 */
#include "cmosquitto.h"

const char *geotrack_mosquitto_load(geotrack_mosquitto *api, const char *soname) {
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!library) return dlerror();
#define GEOTRACK_MOSQUITTO_RESOLVE(field, name) \
    if (!(*(void **)&api->field = dlsym(library, name))) { dlclose(library); return name; }
    GEOTRACK_MOSQUITTO_RESOLVE(lib_init, "mosquitto_lib_init")
    GEOTRACK_MOSQUITTO_RESOLVE(new_client, "mosquitto_new")
    GEOTRACK_MOSQUITTO_RESOLVE(destroy, "mosquitto_destroy")
    GEOTRACK_MOSQUITTO_RESOLVE(int_option, "mosquitto_int_option")
    GEOTRACK_MOSQUITTO_RESOLVE(max_inflight_messages_set, "mosquitto_max_inflight_messages_set")
    GEOTRACK_MOSQUITTO_RESOLVE(connect_with_flags_callback_set, "mosquitto_connect_with_flags_callback_set")
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

void geotrack_mqtt_sink_init(geotrack_mqtt_sink *sink, geotrack_mqtt_handler handler, void *context) {
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

void geotrack_mqtt_sink_deinit(geotrack_mqtt_sink *sink) {
    pthread_cond_destroy(&sink->wake);
    pthread_mutex_destroy(&sink->lock);
}

void geotrack_mqtt_emit(void *obj, geotrack_mqtt_event event) {
    const geotrack_mqtt_sink *sink = (const geotrack_mqtt_sink *)obj;
    if (sink && sink->handler) sink->handler(sink->context, &event);
}

void geotrack_mqtt_on_connect(struct mosquitto *mosq, void *obj, int rc, int flags) {
    (void)mosq;
    /* Called on the loop thread, the delay's only user. */
    if (rc == 0 && obj) ((geotrack_mqtt_sink *)obj)->delay = GEOTRACK_MQTT_FIRST_DELAY;
    /* Bit 0 of the CONNACK's flags: the broker kept this client id's session (MQTT 3.1.1, 3.2.2.2). */
    geotrack_mqtt_event event = { GEOTRACK_MQTT_CONNECTED, rc, 0, NULL, NULL, 0, false, rc == 0 && (flags & 1) != 0 };
    geotrack_mqtt_emit(obj, event);
}

int geotrack_mqtt_connect_result(int rc) {
    if (rc == MOSQ_ERR_ERRNO && errno == EPROTO) return GEOTRACK_MQTT_ERRNO_BASE + EPROTO;
    return rc;
}

void geotrack_mqtt_on_disconnect(struct mosquitto *mosq, void *obj, int rc) {
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

void geotrack_mqtt_on_publish(struct mosquitto *mosq, void *obj, int mid) {
    (void)mosq;
    geotrack_mqtt_event event = { GEOTRACK_MQTT_PUBLISHED, 0, mid, NULL, NULL, 0, false };
    geotrack_mqtt_emit(obj, event);
}

void geotrack_mqtt_on_subscribe(struct mosquitto *mosq, void *obj, int mid, int count, const int *granted) {
    (void)mosq; (void)count; (void)granted;
    geotrack_mqtt_event event = { GEOTRACK_MQTT_SUBSCRIBED, 0, mid, NULL, NULL, 0, false };
    geotrack_mqtt_emit(obj, event);
}

void geotrack_mqtt_on_message(struct mosquitto *mosq, void *obj, const struct mosquitto_message *message) {
    (void)mosq;
    geotrack_mqtt_event event = { GEOTRACK_MQTT_MESSAGE, 0, message->mid, message->topic,
                                  message->payload, message->payloadlen, message->retain };
    geotrack_mqtt_emit(obj, event);
}

struct mosquitto *geotrack_mqtt_new(const geotrack_mosquitto *api, const char *client_id,
                                                  bool clean_session, geotrack_mqtt_sink *sink, int max_inflight) {
    struct mosquitto *mosq = api->new_client(client_id, clean_session, sink);
    if (!mosq) return NULL;
    api->int_option(mosq, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V311);
    api->max_inflight_messages_set(mosq, (unsigned int)max_inflight);
    api->connect_with_flags_callback_set(mosq, geotrack_mqtt_on_connect);
    api->disconnect_callback_set(mosq, geotrack_mqtt_on_disconnect);
    api->publish_callback_set(mosq, geotrack_mqtt_on_publish);
    api->subscribe_callback_set(mosq, geotrack_mqtt_on_subscribe);
    api->message_callback_set(mosq, geotrack_mqtt_on_message);
    return mosq;
}

int geotrack_mqtt_tls(const geotrack_mosquitto *api, struct mosquitto *mosq, const char *ca_file,
                                    const char *cert_file, const char *key_file) {
    return api->tls_set(mosq, ca_file, NULL, cert_file, key_file, NULL);
}

int geotrack_mqtt_publish(const geotrack_mosquitto *api, struct mosquitto *mosq, int *message_id,
                                        const char *topic, const void *payload, int length, int qos, bool retain) {
    return api->publish(mosq, message_id, topic, length, payload, qos, retain);
}

void geotrack_mqtt_destroy(const geotrack_mosquitto *api, struct mosquitto *mosq) {
    api->destroy(mosq);
}

int geotrack_mqtt_credentials(const geotrack_mosquitto *api, struct mosquitto *mosq,
                                            const char *username, const char *password) {
    return api->username_pw_set(mosq, username, password);
}

int geotrack_mqtt_will(const geotrack_mosquitto *api, struct mosquitto *mosq, const char *topic,
                                     int length, const void *payload, int qos, bool retain) {
    return api->will_set(mosq, topic, length, payload, qos, retain);
}

int geotrack_mqtt_connect_async(const geotrack_mosquitto *api, struct mosquitto *mosq,
                                              const char *host, int port, int keep_alive) {
    return geotrack_mqtt_connect_result(api->connect_async(mosq, host, port, keep_alive));
}

bool geotrack_mqtt_reportable(int rc) {
    /* 2.0.11 says MOSQ_ERR_EAI (getaddrinfo failed) for a name not found; MOSQ_ERR_LOOKUP is
       what SOCKS and older releases say. Both mean the same to the user. */
    return rc == MOSQ_ERR_TLS || rc == MOSQ_ERR_TLS_HANDSHAKE || rc == MOSQ_ERR_LOOKUP || rc == MOSQ_ERR_EAI
        || rc == GEOTRACK_MQTT_ERRNO_BASE + EPROTO;
}

void geotrack_mqtt_report_failure(geotrack_mqtt_sink *sink, int rc) {
    if (!geotrack_mqtt_reportable(rc)) return;
    geotrack_mqtt_event event = { GEOTRACK_MQTT_FAILED, rc, 0, NULL, NULL, 0, false };
    geotrack_mqtt_emit(sink, event);
}

bool geotrack_mqtt_loop_stopping(geotrack_mqtt_sink *sink) {
    pthread_mutex_lock(&sink->lock);
    bool stopping = sink->stopping;
    pthread_mutex_unlock(&sink->lock);
    return stopping;
}

struct timespec geotrack_mqtt_deadline(clockid_t clock, long milliseconds) {
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

bool geotrack_mqtt_loop_sleep(geotrack_mqtt_sink *sink, unsigned int seconds) {
    struct timespec deadline = geotrack_mqtt_deadline(CLOCK_MONOTONIC, (long)seconds * 1000L);
    pthread_mutex_lock(&sink->lock);
    while (!sink->stopping) {
        if (pthread_cond_timedwait(&sink->wake, &sink->lock, &deadline) == ETIMEDOUT) break;
    }
    bool stopping = sink->stopping;
    pthread_mutex_unlock(&sink->lock);
    return stopping;
}

void *geotrack_mqtt_loop_main(void *context) {
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

int geotrack_mqtt_loop_start(const geotrack_mosquitto *api, struct mosquitto *mosq,
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

bool geotrack_mqtt_loop_stop(geotrack_mqtt_sink *sink, long grace_ms) {
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

int geotrack_mqtt_subscribe(const geotrack_mosquitto *api, struct mosquitto *mosq, int *message_id,
                                          const char *filter, int qos) {
    return api->subscribe(mosq, message_id, filter, qos);
}

const char *geotrack_mqtt_strerror(const geotrack_mosquitto *api, int result) {
    return api->error_string(result);
}
