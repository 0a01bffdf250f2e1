import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// An HTTP server for one page: fixed assets from memory, and one Server-Sent-Events stream
/// that every client gets the same events from.
///
/// A client's events go through its channel's write buffer, bounded by NIO's water marks
/// (``Limits/bufferedBytes``). ``broadcast(_:)`` never waits for a client: a client whose
/// buffer is full is skipped for that event (counted in ``statistics``), sent a fresh
/// `snapshot` once it reads again, and disconnected after ``Limits/dropsBeforeDisconnect``
/// events in a row were skipped. The server runs on one event-loop thread of its own, so
/// neither a slow browser nor many of them take time from whoever broadcasts.
public final class EventStreamServer: Sendable {
    /// How much the server takes on.
    public struct Limits: Sendable {
        /// Event-stream clients at once; more are answered 503.
        public var maximumClients = 256
        /// Bytes a client's channel may hold unsent before its events are skipped (the high
        /// water mark; it may send again below half of it).
        public var bufferedBytes = 256 * 1024
        /// Events skipped in a row before a client that does not read is disconnected.
        public var dropsBeforeDisconnect = 200
        /// The kernel's send buffer for each connection (Linux doubles it): fixed, so that what a
        /// client that stops reading holds in the kernel is bounded too, not grown by autotuning.
        public var socketSendBuffer = 64 * 1024
        /// Seconds between comments on an idle stream, which find clients that went away.
        public var heartbeatSeconds: Int64 = 15
        /// Seconds a connection has to send a whole request, from when it opens or was last
        /// answered; then it is closed (a stream, once started, is not).
        public var requestSeconds: Int64 = 30
        /// The slowest a client may take an answer: it has ``requestSeconds`` and a second more
        /// for each this many bytes of it, or it is closed (and counted as dropped for not
        /// reading).
        public var answerBytesPerSecond = 1024

        /// The defaults.
        public init() {}
    }

    let assets: [String: WebAsset]
    let streamPath: String
    let headers: [(name: String, value: String)]
    let snapshot: @Sendable () -> [ServerSentEvent]
    let limits: Limits
    let hosts: HostCheck
    private let group: MultiThreadedEventLoopGroup
    private let state = Mutex(State())

    private struct State {
        var server: (any Channel)?
        var clients: [ObjectIdentifier: Client] = [:]
        var statistics = EventStreamStatistics()
        var heartbeat: RepeatedTask?
        var stopped = false
    }

    struct Client: Sendable {
        let channel: any Channel
        let handler: NIOLoopBound<HTTPConnectionHandler>
    }

    /// A server of `assets` by path (`/` included), the stream at `streamPath`, each response
    /// with `headers` (a Content-Security-Policy, say), their values made visible ASCII
    /// (``headerValue(_:)``). `snapshot` is what a client is sent first, and again after it
    /// missed events: it must make the events sent since redundant. A request whose `Host`
    /// `hosts` does not allow is answered 403, whatever it asks for.
    public init(assets: [String: WebAsset], streamPath: String = "/events",
                headers: [(name: String, value: String)] = [], limits: Limits = Limits(),
                hosts: HostCheck = HostCheck(), snapshot: @escaping @Sendable () -> [ServerSentEvent]) {
        self.assets = assets
        self.hosts = hosts
        self.streamPath = streamPath
        self.headers = headers.map { ($0.name, Self.headerValue($0.value)) }
        self.limits = limits
        self.snapshot = snapshot
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    }

    /// `value` as a header may carry it: visible ASCII and inner spaces (RFC 9110's field-value
    /// without obs-text) kept, every other byte percent-encoded (`%C3%A4` for `ä`, `%0D` for a
    /// carriage return), `%` too so that the encoding reads back. A value from configuration or
    /// a command line may hold anything; raw UTF-8 or a line break there would be read as
    /// Latin-1 by one client, refused by another, or end the header.
    public static func headerValue(_ value: String) -> String {
        let hex = Array("0123456789ABCDEF".unicodeScalars)
        var out = ""
        for byte in value.utf8 {
            if (0x21...0x7E).contains(byte) && byte != UInt8(ascii: "%") || byte == 0x20 {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(hex[Int(byte >> 4)])
                out.unicodeScalars.append(hex[Int(byte & 0x0F)])
            }
        }
        // Spaces at either end are not part of a field value: a reader would drop them.
        while out.hasPrefix(" ") { out = "%20" + out.dropFirst() }
        while out.hasSuffix(" ") { out = out.dropLast() + "%20" }
        return out
    }

    /// Starts listening on `host`:`port` (0 picks a free port); returns the port bound.
    public func start(host: String, port: Int) async throws(WebServeError) -> Int {
        let bufferedBytes = max(1024, limits.bufferedBytes)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 256)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.writeBufferWaterMark,
                                value: ChannelOptions.Types.WriteBufferWaterMark(low: bufferedBytes / 2, high: bufferedBytes))
            .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(ChannelOptions.socketOption(.so_sndbuf), value: SocketOptionValue(max(4096, limits.socketSendBuffer)))
            .childChannelInitializer { [self] channel in
                do {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(HTTPConnectionHandler(server: self))
                    return channel.eventLoop.makeSucceededVoidFuture()
                } catch {
                    return channel.eventLoop.makeFailedFuture(error)
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.bind(host: host, port: port).get()
        } catch {
            throw WebServeError.listening(host: host, port: port, error: error)
        }
        let seconds = max(1, limits.heartbeatSeconds)
        let heartbeat = channel.eventLoop.scheduleRepeatedTask(initialDelay: .seconds(seconds), delay: .seconds(seconds)) {
            [self] _ in
            for client in clients() { client.handler.value.heartbeat() }
        }
        state.withLock {
            $0.server = channel
            $0.heartbeat = heartbeat
        }
        return channel.localAddress?.port ?? port
    }

    /// Sends `event` to every stream client, without waiting for any.
    public func broadcast(_ event: ServerSentEvent) {
        let targets = clients()
        guard let first = targets.first else { return }
        let bytes = event.encoded
        first.channel.eventLoop.execute {
            let buffer = ByteBuffer(bytes: bytes)
            for client in targets { client.handler.value.send(buffer) }
        }
    }

    /// What the server has done so far.
    public var statistics: EventStreamStatistics {
        state.withLock { $0.statistics }
    }

    /// Closes the listening socket and every connection, and stops the server's thread.
    public func stop() async {
        let (server, clients, heartbeat, first) = state.withLock { state in
            let first = !state.stopped
            state.stopped = true
            defer { state.server = nil; state.clients = [:]; state.heartbeat = nil }
            return (state.server, Array(state.clients.values), state.heartbeat, first)
        }
        guard first else { return }
        heartbeat?.cancel()
        try? await server?.close()
        for client in clients { client.channel.close(promise: nil) }
        try? await group.shutdownGracefully()
    }

    // MARK: For the connections

    private func clients() -> [Client] {
        state.withLock { Array($0.clients.values) }
    }

    /// Adds a stream client; false when the server is full or stopping.
    func register(_ id: ObjectIdentifier, _ client: Client) -> Bool {
        state.withLock { state in
            guard !state.stopped else { return false }
            guard state.clients.count < limits.maximumClients else {
                state.statistics.refusedClients += 1
                return false
            }
            state.clients[id] = client
            state.statistics.connections += 1
            state.statistics.clients = state.clients.count
            return true
        }
    }

    func unregister(_ id: ObjectIdentifier) {
        state.withLock { state in
            state.clients[id] = nil
            state.statistics.clients = state.clients.count
        }
    }

    func countDroppedEvent() {
        state.withLock { $0.statistics.droppedEvents += 1 }
    }

    func countDroppedClient() {
        state.withLock { $0.statistics.droppedClients += 1 }
    }
}
