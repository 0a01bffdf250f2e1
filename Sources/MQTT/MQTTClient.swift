import CMosquitto
import Executors
import FoundationEssentials
import Logging
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One MQTT client over libmosquitto: connects in the background, reconnects by itself (1 s,
/// doubling to 30 s, like the gpsd client), publishes and subscribes, and reports what the
/// broker says as ``events``.
///
/// The network runs on a thread of its own (the C shim's loop over libmosquitto, which a close
/// wakes even during a reconnection delay); libmosquitto's callbacks become ``MQTTEvent``s
/// on an `AsyncStream`, so nothing of it runs on Swift's cooperative pool. The blocking calls
/// (the first connect, with its name lookup, and joining the network thread) run on a thread
/// started for them. Publishing only queues the message for that thread and never blocks.
///
/// Call ``close()`` exactly once; a client dropped while open is a bug (debug builds trap,
/// like swift-nio's `NIOFileHandle`).
public final class MQTTClient: Sendable {
    /// A message the broker publishes for the client when it goes away without saying so.
    public struct Will: Sendable, Hashable {
        /// Where it is published.
        public var topic: String
        /// What is published.
        public var payload: [UInt8]
        /// Whether the broker keeps it for later subscribers.
        public var retain: Bool

        /// Creates a will.
        public init(topic: String, payload: [UInt8], retain: Bool = false) {
            self.topic = topic
            self.payload = payload
            self.retain = retain
        }
    }

    /// What the broker connection reports. Finishes when the client is closed.
    public let events: AsyncStream<MQTTEvent>
    /// The broker, as a URL without the password.
    public let endpoint: MQTTEndpoint

    private let handle: Handle
    private let sink: Sink
    private let library: LibMosquitto
    private let state = Mutex(State.idle)
    private let logger: Logger?

    private enum State {
        case idle
        case started(ThreadSemaphore)
        case closed
    }

    /// Creates a client; nothing is sent until ``start()``.
    /// - Parameters:
    ///   - clientID: the id the broker knows the client by (at most 23 bytes for old brokers).
    ///   - endpoint: the broker, with its user, password and TLS files.
    ///   - will: the message the broker publishes if the client goes away without closing.
    ///   - maximumInFlight: how many QoS 1 messages may wait for their PUBACK at once; more are
    ///     queued by libmosquitto, in order.
    ///   - keepsSession: whether the broker keeps the client's subscriptions and queues its QoS 1
    ///     messages while it is disconnected (MQTT's clean session off). Needs a client id no
    ///     other client uses.
    ///   - logger: where the client says what happens; nil for nothing.
    public init(clientID: String, endpoint: MQTTEndpoint, will: Will? = nil, maximumInFlight: Int = 100,
                keepsSession: Bool = false, logger: Logger? = nil) throws(MQTTError) {
        let library: LibMosquitto
        switch LibMosquitto.shared {
        case .success(let loaded): library = loaded
        case .failure(let error): throw error
        }
        self.library = library
        let (events, continuation) = AsyncStream.makeStream(of: MQTTEvent.self)
        self.events = events
        self.endpoint = endpoint
        self.logger = logger
        let sink = Sink(continuation: continuation)
        self.sink = sink
        var failure: Int32 = 0
        let made = clientID.withCString { name -> OpaquePointer? in
            errno = 0
            let pointer = geotrack_mqtt_new(library.api, name, !keepsSession, sink.cSink, Int32(maximumInFlight))
            failure = errno
            return pointer
        }
        guard let pointer = made else {
            sink.release()
            handle = Handle(pointer: nil)
            state.withLock { $0 = .closed }
            // mosquitto_new says EINVAL for a client id MQTT does not take (a control
            // character, too long), ENOMEM only when memory ran out.
            if failure == ENOMEM { throw MQTTError(.failure, "cannot create an MQTT client: out of memory") }
            throw MQTTError(.invalidArgument, "the client id '\(clientID.debugDescription.dropFirst().dropLast())' is not one MQTT takes: use a name without control characters, at most 65 535 bytes")
        }
        handle = Handle(pointer: pointer)
        do throws(MQTTError) {
            try configure(will: will)
        } catch {
            geotrack_mqtt_destroy(library.api, pointer)
            sink.release()
            state.withLock { $0 = .closed }
            throw error
        }
    }

    private func configure(will: Will?) throws(MQTTError) {
        let mosq = handle.pointer
        let api = library.api
        var result: Int32
        if let username = endpoint.username {
            result = geotrack_mqtt_credentials(api, mosq, username, endpoint.password)
            guard result == MOSQ_ERR_SUCCESS.rawValue else { throw .library(result, "setting the user name", library) }
        }
        if let tls = endpoint.tls {
            result = geotrack_mqtt_tls(api, mosq, tls.caFile, tls.certificateFile, tls.keyFile)
            guard result == MOSQ_ERR_SUCCESS.rawValue else {
                throw MQTTError(.tls, "cannot use the TLS files (CA \(tls.caFile)): \(library.describe(result)); check they exist and are PEM")
            }
        }
        if let will {
            result = will.payload.withUnsafeBytes { bytes in
                geotrack_mqtt_will(api, mosq, will.topic, Int32(bytes.count), bytes.baseAddress, 1, will.retain)
            }
            guard result == MOSQ_ERR_SUCCESS.rawValue else { throw .library(result, "setting the last will", library) }
        }
    }

    deinit {
        let open = state.withLock { state -> Bool in
            if case .closed = state { return false }
            return true
        }
        if open {
            assertionFailure("leaked open MQTTClient for \(endpoint). Call close() when done.")
        }
    }

    /// Connects in the background and keeps the connection: ``MQTTEvent/connected(sessionPresent:)`` when the
    /// broker accepts, and again after every reconnection. Calling it twice does nothing.
    public func start() {
        let done = ThreadSemaphore(value: 0)
        let connect: @Sendable () -> Void = { [handle, sink, endpoint, logger, library] in
            defer { done.signal() }
            // A refused or failed first connect is retried by the network thread, with its delay.
            let result = geotrack_mqtt_connect_async(library.api, handle.pointer, endpoint.host, Int32(endpoint.port),
                                                     Int32(endpoint.keepAlive))
            if result != MOSQ_ERR_SUCCESS.rawValue {
                let why = result >= GEOTRACK_MQTT_ERRNO_BASE ? Self.failureReason(result) : library.describe(result)
                logger?.debug("MQTT: first connect to \(endpoint) failed: \(why); retrying")
                // Told the way the network thread tells its own failures (a name not found).
                geotrack_mqtt_report_failure(sink.cSink, result)
            }
            let loop = geotrack_mqtt_loop_start(library.api, handle.pointer, sink.cSink, Int32(endpoint.keepAlive))
            if loop != 0 {
                logger?.error("MQTT: cannot start the network thread: \(String(cString: strerror(loop)))")
            }
        }
        let started = state.withLock { state -> Bool in
            guard case .idle = state else { return false }
            state = .started(done)
            return true
        }
        if started { DetachedThread.startOrRun(name: "geotrack mqtt connect", connect) }
    }

    /// Queues a message for the broker and returns its id, which a later
    /// ``MQTTEvent/acknowledged(messageID:)`` carries for QoS 1. Works while disconnected too:
    /// libmosquitto sends it once connected.
    public func publish(topic: String, payload: [UInt8], qos: Int32 = 1, retain: Bool = false) throws(MQTTError) -> Int32 {
        var messageID: Int32 = 0
        // More than Int32 can say is more than MQTT's 256 MB: libmosquitto refuses it by size.
        let length = Int32(clamping: payload.count)
        let result = try whileOpen("publishing to \(endpoint)") { pointer in
            payload.withUnsafeBytes { bytes in
                geotrack_mqtt_publish(library.api, pointer, &messageID, topic, bytes.baseAddress, length, qos, retain)
            }
        }
        guard result == MOSQ_ERR_SUCCESS.rawValue || result == MOSQ_ERR_NO_CONN.rawValue else {
            throw .library(result, "publishing to \(topic)", library)
        }
        return messageID
    }

    /// Subscribes to a topic filter (`+` and `#` allowed); returns the id the SUBACK carries.
    /// Subscriptions last as long as the session: subscribe again on each
    /// ``MQTTEvent/connected(sessionPresent:)`` whose session is not present. (Subscribing again
    /// makes the broker send each topic's retained message again.)
    @discardableResult
    public func subscribe(_ filter: String, qos: Int32 = 1) throws(MQTTError) -> Int32 {
        var messageID: Int32 = 0
        let result = try whileOpen("subscribing to \(filter)") { pointer in
            geotrack_mqtt_subscribe(library.api, pointer, &messageID, filter, qos)
        }
        guard result == MOSQ_ERR_SUCCESS.rawValue else { throw .library(result, "subscribing to \(filter)", library) }
        return messageID
    }

    /// Runs `body` with the libmosquitto handle while the client is open, holding the state's
    /// lock: ``close()`` marks the client closed under the same lock before it destroys the
    /// handle, so a publish that checked "open" can no longer use a handle being freed. The
    /// calls made this way only queue (they never block on the network), so the lock is brief.
    private func whileOpen(_ action: String, _ body: (OpaquePointer?) -> Int32) throws(MQTTError) -> Int32 {
        let pointer = handle.pointer
        return try state.withLock { state throws(MQTTError) -> Int32 in
            if case .closed = state { throw MQTTError(.notConnected, "\(action): the client is closed") }
            return body(pointer)
        }
    }

    /// What a ``MQTTEvent/failed(code:)`` code means, and what to check.
    public static func failureReason(_ code: Int32) -> String {
        switch code {
        case MOSQ_ERR_TLS.rawValue, MOSQ_ERR_TLS_HANDSHAKE.rawValue:
            "the TLS handshake failed: check that the CA file is the one that signed the broker's certificate, and that the URL's host is a name the certificate carries"
        case GEOTRACK_MQTT_ERRNO_BASE + EPROTO:
            // The broker ended the handshake: what it checks of the client is its certificate.
            "the TLS handshake failed: the broker refused the client; check the client certificate and key it may require, and the CA file"
        case MOSQ_ERR_LOOKUP.rawValue, MOSQ_ERR_EAI.rawValue:
            // 2.0.11 says EAI (getaddrinfo failed) where the name does not resolve.
            "the broker's host name was not found: check the URL, and the network"
        case GEOTRACK_MQTT_ERRNO_BASE + ECONNREFUSED:
            "the broker's host refused the connection: check the URL's port, and that the broker runs"
        case GEOTRACK_MQTT_ERRNO_BASE + EHOSTUNREACH, GEOTRACK_MQTT_ERRNO_BASE + ENETUNREACH:
            "the broker's host cannot be reached: check the network, and the URL's host"
        case GEOTRACK_MQTT_ERRNO_BASE + ETIMEDOUT:
            "the broker's host did not answer: check the URL, and any firewall between"
        default:
            "libmosquitto error \(code)"
        }
    }

    /// The first part of ``failureReason(_:)``, what happened without what to check: the
    /// status line's words, the same as the note's and the fleet header's.
    public static func failureSummary(_ code: Int32) -> String {
        let reason = failureReason(code)
        return reason.firstRange(of: ": ").map { String(reason[..<$0.lowerBound]) } ?? reason
    }

    /// How long close() waits for the network thread to send DISCONNECT and end, in milliseconds.
    static let stopGrace = 800

    /// Disconnects, stops the network thread and frees the client; ``events`` finishes. What was
    /// queued and not acknowledged is dropped (the caller's outbox still has it). Returns within
    /// a second, even while a reconnection delay is running.
    public func close() async {
        let previous = state.withLock { state -> State in
            defer { state = .closed }
            return state
        }
        guard case .started(let starter) = previous else {
            if case .idle = previous {
                geotrack_mqtt_destroy(library.api, handle.pointer)
                sink.release()
            }
            return
        }
        let handle = handle
        let sink = sink
        let library = library
        // Joining threads blocks: on a thread of its own, not on the cooperative pool.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DetachedThread.startOrRun(name: "geotrack mqtt close") {
                // The starter only connects (a non-blocking socket) and starts the loop: brief.
                starter.wait()
                if geotrack_mqtt_loop_stop(sink.cSink, Self.stopGrace) {
                    geotrack_mqtt_destroy(library.api, handle.pointer)
                    sink.release()
                } else {
                    // The network thread is stuck in a blocking call (a name lookup) and still
                    // uses both: they stay allocated, and the events end now.
                    sink.finish()
                }
                continuation.resume()
            }
        }
    }
}

extension MQTTClient {
    /// The libmosquitto instance, used only through its thread-safe calls.
    final class Handle: @unchecked Sendable {
        // libmosquitto locks internally around publish, subscribe and disconnect when built
        // with threads (Debian's is); destroy happens once, after the network thread stopped.
        let pointer: OpaquePointer?

        init(pointer: OpaquePointer?) {
            self.pointer = pointer
        }
    }

    /// Where the network thread's callbacks land: a C struct naming one C function, with this
    /// object as its context.
    final class Sink: Sendable {
        private let continuation: AsyncStream<MQTTEvent>.Continuation
        private let storage: CSink

        /// The C struct, allocated once and freed by ``release()``.
        final class CSink: @unchecked Sendable {
            // Written once in Sink.init, before libmosquitto can read it; freed after its thread stopped.
            let pointer = UnsafeMutablePointer<geotrack_mqtt_sink>.allocate(capacity: 1)
        }

        var cSink: UnsafeMutablePointer<geotrack_mqtt_sink> { storage.pointer }

        init(continuation: AsyncStream<MQTTEvent>.Continuation) {
            self.continuation = continuation
            storage = CSink()
            geotrack_mqtt_sink_init(storage.pointer, { context, event in
                guard let context, let event else { return }
                Unmanaged<Sink>.fromOpaque(context).takeUnretainedValue().receive(event.pointee)
            }, nil)
            storage.pointer.pointee.context = Unmanaged.passRetained(self).toOpaque()
        }

        func receive(_ event: geotrack_mqtt_event) {
            switch event.kind {
            case GEOTRACK_MQTT_CONNECTED:
                continuation.yield(event.code == 0 ? .connected(sessionPresent: event.session_present) : .refused(code: event.code))
            case GEOTRACK_MQTT_DISCONNECTED:
                continuation.yield(.disconnected(code: event.code))
            case GEOTRACK_MQTT_PUBLISHED:
                continuation.yield(.acknowledged(messageID: event.message_id))
            case GEOTRACK_MQTT_SUBSCRIBED:
                continuation.yield(.subscribed(messageID: event.message_id))
            case GEOTRACK_MQTT_FAILED:
                continuation.yield(.failed(code: event.code))
            case GEOTRACK_MQTT_MESSAGE:
                let topic = event.topic.map { String(cString: $0) } ?? ""
                let payload = event.payload.map {
                    [UInt8](UnsafeRawBufferPointer(start: $0, count: Int(max(0, event.payload_length))))
                } ?? []
                continuation.yield(.message(topic: topic, payload: payload, retained: event.retained))
            default:
                break
            }
        }

        /// Ends the events.
        func finish() {
            continuation.finish()
        }

        /// Ends the events and frees the C struct; called once libmosquitto can no longer call back.
        func release() {
            continuation.finish()
            if let context = storage.pointer.pointee.context {
                Unmanaged<Sink>.fromOpaque(context).release()
            }
            geotrack_mqtt_sink_deinit(storage.pointer)
            storage.pointer.deallocate()
        }
    }
}
