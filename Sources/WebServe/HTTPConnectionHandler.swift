import NIOCore
import NIOHTTP1

/// One connection: answers GET and HEAD for the assets and `/stats`, and turns a request for
/// the stream into a stream client of ``EventStreamServer``. Runs on the connection's event loop.
final class HTTPConnectionHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let server: EventStreamServer
    private var context: ChannelHandlerContext?
    private var request: HTTPRequestHead?
    private var streaming = false
    /// Events were skipped since the client last read: it gets a fresh snapshot when it reads again.
    private var missed = false
    private var dropsInARow = 0
    /// Closes the connection unless a whole request arrives first (``EventStreamServer/Limits/requestSeconds``).
    private var requestDeadline: Scheduled<Void>?

    init(server: EventStreamServer) {
        self.server = server
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        awaitRequest()
    }

    func channelActive(context: ChannelHandlerContext) {
        // An accepted connection becomes active after its handlers are added.
        awaitRequest()
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        cancelRequestDeadline()
        if streaming { server.unregister(ObjectIdentifier(self)) }
        streaming = false
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelRequestDeadline()
        if streaming { server.unregister(ObjectIdentifier(self)) }
        streaming = false
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            request = head
        case .body:
            // No request here has a body worth reading.
            break
        case .end:
            guard let head = request, !streaming else { return }
            request = nil
            cancelRequestDeadline()
            respond(to: head, context: context)
        }
    }

    /// Gives the client ``EventStreamServer/Limits/requestSeconds`` to send a whole request:
    /// one that holds a connection open without finishing its request (or asking another
    /// after its answer) would otherwise keep its descriptor for good, and enough of them
    /// leave none for the browsers.
    private func awaitRequest() {
        closeUnlessDone(within: server.limits.requestSeconds, notReading: false)
    }

    /// Closes the connection after `seconds` unless a later deadline or a stream replaces this
    /// one; `notReading` counts it as a client dropped for not reading its answer.
    private func closeUnlessDone(within seconds: Int64, notReading: Bool) {
        cancelRequestDeadline()
        guard let context, !streaming, context.channel.isActive else { return }
        let channel = context.channel
        requestDeadline = context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(max(1, seconds))) {
            [self] in
            guard !streaming else { return }
            if notReading { server.countDroppedClient() }
            channel.close(promise: nil)
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if streaming, missed, context.channel.isWritable {
            missed = false
            dropsInARow = 0
            write(server.snapshot(), context: context)
        }
        context.fireChannelWritabilityChanged()
    }

    // MARK: Requests

    private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
        guard head.method == .GET || head.method == .HEAD else {
            return answer(head, status: .methodNotAllowed, type: "text/plain; charset=utf-8", body: Array("GET only\n".utf8),
                          extra: [("Allow", "GET, HEAD")], context: context)
        }
        // Before anything is answered: a page of another site, its name rebound to this
        // machine, must read nothing (see HostCheck). Two Host headers are no request.
        let hosts = head.headers["Host"]
        guard hosts.count <= 1, server.hosts.allows(hosts.first) else {
            var refused = head
            refused.headers.replaceOrAdd(name: "Connection", value: "close")
            return answer(refused, status: .forbidden, type: "text/plain; charset=utf-8",
                          body: Array("this server answers its own addresses only\n".utf8), context: context)
        }
        let path = String(head.uri.prefix { $0 != "?" && $0 != "#" })
        if path == server.streamPath {
            return startStream(head, context: context)
        }
        if path == "/stats" {
            return answer(head, status: .ok, type: "application/json", body: Array(server.statistics.json.utf8), context: context)
        }
        guard let asset = server.assets[path] else {
            return answer(head, status: .notFound, type: "text/plain; charset=utf-8", body: Array("not found\n".utf8), context: context)
        }
        answer(head, status: .ok, type: asset.contentType, body: asset.body, context: context)
    }

    private func commonHeaders(type: String) -> HTTPHeaders {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: type)
        headers.add(name: "X-Content-Type-Options", value: "nosniff")
        headers.add(name: "Referrer-Policy", value: "no-referrer")
        for header in server.headers { headers.add(name: header.name, value: header.value) }
        return headers
    }

    private func answer(_ head: HTTPRequestHead, status: HTTPResponseStatus, type: String, body: [UInt8],
                        extra: [(String, String)] = [], context: ChannelHandlerContext) {
        var headers = commonHeaders(type: type)
        headers.add(name: "Content-Length", value: String(body.count))
        headers.add(name: "Cache-Control", value: "no-cache")
        for (name, value) in extra { headers.add(name: name, value: value) }
        let keepAlive = head.isKeepAlive
        headers.add(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        // A client that asks and never reads its answer would otherwise keep its connection for
        // good, and enough of them leave no descriptor for the browsers. It has the request's
        // time, and a second more for each `answerBytesPerSecond` of the answer, to take it all.
        let sent = head.method == .HEAD ? 0 : body.count
        let rate = max(1, server.limits.answerBytesPerSecond)
        closeUnlessDone(within: server.limits.requestSeconds + Int64(sent / rate), notReading: true)
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))), promise: nil)
        if head.method != .HEAD {
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
        }
        finish(context.writeAndFlush(wrapOutboundOut(.end(nil))), keepAlive: keepAlive, context: context)
    }

    private func cancelRequestDeadline() {
        requestDeadline?.cancel()
        requestDeadline = nil
    }

    /// Once an answer is written: closes the connection, or gives it time for its next
    /// request. Counted from then, not from the request, so that a client slow to read a
    /// large answer (within ``EventStreamServer/Limits/answerBytesPerSecond``) gets all of it.
    private func finish(_ written: EventLoopFuture<Void>, keepAlive: Bool, context: ChannelHandlerContext) {
        guard keepAlive else {
            let channel = context.channel
            written.whenComplete { _ in channel.close(promise: nil) }
            return
        }
        written.assumeIsolated().whenComplete { [self] _ in awaitRequest() }
    }

    private func startStream(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        var headers = commonHeaders(type: "text/event-stream; charset=utf-8")
        headers.add(name: "Cache-Control", value: "no-store")
        headers.add(name: "Connection", value: "keep-alive")
        let responseHead = HTTPResponseHead(version: head.version, status: .ok, headers: headers)
        // HEAD gets the stream's headers without becoming a stream: the counts of streams
        // served (`/stats`, serve's last line) are of browsers that got events.
        if head.method == .HEAD {
            context.write(wrapOutboundOut(.head(responseHead)), promise: nil)
            finish(context.writeAndFlush(wrapOutboundOut(.end(nil))), keepAlive: true, context: context)
            return
        }
        // Registered before the snapshot is taken: an event made meanwhile reaches the client
        // twice (the page drops what its snapshot already holds), never not at all.
        let client = EventStreamServer.Client(channel: context.channel, handler: NIOLoopBound(self, eventLoop: context.eventLoop))
        guard server.register(ObjectIdentifier(self), client) else {
            var busy = head
            busy.headers.replaceOrAdd(name: "Connection", value: "close")
            return answer(busy, status: .serviceUnavailable, type: "text/plain; charset=utf-8",
                          body: Array("too many clients\n".utf8), extra: [("Retry-After", "5")], context: context)
        }
        streaming = true
        context.write(wrapOutboundOut(.head(responseHead)), promise: nil)
        // The browser reconnects after 2 s if the stream breaks.
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: "retry: 2000\n\n")))), promise: nil)
        write(server.snapshot(), context: context)
    }

    private func write(_ events: [ServerSentEvent], context: ChannelHandlerContext) {
        var buffer = context.channel.allocator.buffer(capacity: 0)
        for event in events { buffer.writeBytes(event.encoded) }
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
    }

    // MARK: From the server

    /// Sends an encoded event, or skips it when the client's buffer is full.
    func send(_ buffer: ByteBuffer) {
        guard streaming, let context else { return }
        guard context.channel.isWritable else {
            server.countDroppedEvent()
            missed = true
            dropsInARow += 1
            if dropsInARow == server.limits.dropsBeforeDisconnect {
                server.countDroppedClient()
                context.close(promise: nil)
            }
            return
        }
        dropsInARow = 0
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
    }

    /// A comment line: a client that went away is found by the write failing.
    func heartbeat() {
        guard streaming, let context, context.channel.isWritable else { return }
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: ":\n\n")))), promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
