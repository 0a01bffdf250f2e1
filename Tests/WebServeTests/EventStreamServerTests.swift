import Foundation
import GeoTrackTesting
import Testing
import WebServe

/// The server on a real loopback socket, with a plain socket client: what a browser sends and
/// reads, without a browser.
@Suite("The event-stream server")
struct EventStreamServerTests {
    /// A blocking loopback client with a receive timeout, reading only when asked (on a thread of
    /// its own, ``read(until:)``: never on the cooperative pool). One test uses it at a time.
    final class Client: @unchecked Sendable {
        let socket: Int32

        init(port: Int, receiveBuffer: Int32? = nil) throws {
            guard let socket = Loopback.connect(port: port, receiveTimeout: 10, receiveBuffer: receiveBuffer) else {
                throw POSIXError(.ECONNREFUSED)
            }
            self.socket = socket
        }

        deinit { close(socket) }

        func send(_ text: String) {
            _ = text.utf8CString.withUnsafeBufferPointer { Glibc.send(socket, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL)) }
        }

        /// Reads until `text` has arrived (or the connection ends, or 10 s pass without a byte);
        /// returns what was read, or nil when `text` never came.
        func readBlocking(until text: String) -> String? {
            var received = ""
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while !received.contains(text) {
                let count = recv(socket, &buffer, buffer.count, 0)
                guard count > 0 else { return nil }
                received += String(decoding: buffer[0..<count], as: UTF8.self)
            }
            return received
        }

        /// Whether the server closes the connection (or resets it) within `deadline` seconds,
        /// whatever it sends first; false when it is still open then.
        func closedBlocking(within deadline: TimeInterval) -> Bool {
            let end = Date().addingTimeInterval(deadline)
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while Date() < end {
                let count = recv(socket, &buffer, buffer.count, 0)
                if count == 0 { return true }
                if count < 0, errno != EAGAIN, errno != EWOULDBLOCK, errno != EINTR { return true }
            }
            return false
        }

        /// ``closedBlocking(within:)`` on a thread of its own.
        func closed(within deadline: TimeInterval) async -> Bool {
            await withCheckedContinuation { continuation in
                Thread { continuation.resume(returning: self.closedBlocking(within: deadline)) }.start()
            }
        }

        /// ``readBlocking(until:)`` on a thread of its own.
        func read(until text: String) async -> String? {
            await withCheckedContinuation { continuation in
                Thread { continuation.resume(returning: self.readBlocking(until: text)) }.start()
            }
        }
    }

    static func server(limits: EventStreamServer.Limits = .init(), snapshot: @escaping @Sendable () -> [ServerSentEvent] = { [] })
        -> EventStreamServer {
        EventStreamServer(assets: ["/": WebAsset(contentType: "text/html; charset=utf-8", text: "<p>page</p>")],
                          headers: [("Content-Security-Policy", "default-src 'none'")], limits: limits, snapshot: snapshot)
    }

    /// A client on `port` whose event stream has started (its first `retry:` line arrived).
    static func stream(port: Int) async throws -> Client {
        let client = try Client(port: port)
        client.send("GET /events HTTP/1.1\r\nHost: localhost\r\n\r\n")
        let received = await client.read(until: "retry: 2000\n\n") ?? ""
        #expect(received.contains("retry: 2000\n\n"), "the stream never started: \(received)")
        return client
    }

    @Test("assets with their type and the page's policy; 404 for others; GET and HEAD only")
    func assets() async throws {
        let server = Self.server()
        let port = try await server.start(host: "127.0.0.1", port: 0)
        let client = try Client(port: port)
        var received = ""
        client.send("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
        received = await client.read(until: "<p>page</p>") ?? ""
        #expect(received.contains("<p>page</p>"))
        #expect(received.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(received.contains("Content-Type: text/html; charset=utf-8\r\n"))
        #expect(received.contains("Content-Security-Policy: default-src 'none'\r\n"))
        #expect(received.contains("X-Content-Type-Options: nosniff\r\n"))
        received = ""
        client.send("GET /nothing HTTP/1.1\r\nHost: localhost\r\n\r\n")
        received = await client.read(until: "not found\n") ?? ""
        #expect(received.contains("not found\n"))
        #expect(received.hasPrefix("HTTP/1.1 404 Not Found\r\n"))
        received = ""
        client.send("POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\n\r\nhi")
        received = await client.read(until: "GET only\n") ?? ""
        #expect(received.contains("GET only\n"))
        #expect(received.hasPrefix("HTTP/1.1 405 Method Not Allowed\r\n"))
        await server.stop()
    }

    @Test("header values from configuration are sent as visible ASCII: UTF-8, a line break and an end space percent-encoded")
    func headerValues() async throws {
        let server = EventStreamServer(assets: ["/": WebAsset(contentType: "text/plain", text: "page")],
                                       headers: [("X-Origin", "https://kärtchen.example 100%\r\nSet-Cookie: a=b ")], snapshot: { [] })
        let port = try await server.start(host: "127.0.0.1", port: 0)
        let client = try Client(port: port)
        client.send("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
        let received = await client.read(until: "\r\n\r\npage") ?? ""
        let head = received.components(separatedBy: "\r\n\r\n").first ?? ""
        #expect(head.contains("\r\nX-Origin: https://k%C3%A4rtchen.example 100%25%0D%0ASet-Cookie: a=b%20\r\n"), "\(head)")
        #expect(head.unicodeScalars.allSatisfy { $0.isASCII }, "\(head)")
        #expect(!head.contains("\r\nSet-Cookie"), "\(head)")
        #expect(EventStreamServer.headerValue("default-src 'none'; img-src 'self'") == "default-src 'none'; img-src 'self'")
        await server.stop()
    }

    @Test("a stream gets the snapshot first, then every event broadcast")
    func stream() async throws {
        let server = Self.server(snapshot: { [ServerSentEvent(name: "snapshot", data: "{\"seq\":0}")] })
        let port = try await server.start(host: "127.0.0.1", port: 0)
        let client = try Client(port: port)
        var received = ""
        client.send("GET /events HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n")
        received = await client.read(until: "event: snapshot\ndata: {\"seq\":0}\n\n") ?? ""
        #expect(received.contains("event: snapshot\ndata: {\"seq\":0}\n\n"))
        #expect(received.contains("Content-Type: text/event-stream; charset=utf-8\r\n"))
        // Registered before the snapshot was written: an event broadcast now reaches it.
        server.broadcast(ServerSentEvent(name: "fix", data: "{\"seq\":1,\n\"lat\":1}"))
        received = await client.read(until: "event: fix\ndata: {\"seq\":1,\"lat\":1}\n\n") ?? ""
        #expect(received.contains("event: fix\ndata: {\"seq\":1,\"lat\":1}\n\n"))
        #expect(server.statistics.clients == 1 && server.statistics.connections == 1)
        await server.stop()
    }

    @Test("HEAD of the stream answers its headers and is not counted as a stream served")
    func headOfStream() async throws {
        let server = Self.server(snapshot: { [ServerSentEvent(name: "snapshot", data: "{\"seq\":0}")] })
        let port = try await server.start(host: "127.0.0.1", port: 0)
        let client = try Client(port: port)
        client.send("HEAD /events HTTP/1.1\r\nHost: localhost\r\n\r\n")
        let received = await client.read(until: "\r\n\r\n") ?? ""
        #expect(received.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(received)")
        #expect(received.contains("Content-Type: text/event-stream; charset=utf-8\r\n"), "\(received)")
        // The same connection then asks for the stream itself: one stream served, not two.
        client.send("GET /events HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(await client.read(until: "event: snapshot\n") != nil)
        let statistics = server.statistics
        #expect(statistics.connections == 1 && statistics.clients == 1, "\(statistics)")
        await server.stop()
    }

    @Test("a client that stops reading has events skipped, then is dropped; a reading client gets every event")
    func slowClient() async throws {
        var limits = EventStreamServer.Limits()
        limits.bufferedBytes = 64 * 1024
        limits.dropsBeforeDisconnect = 20
        let server = Self.server(limits: limits)
        let port = try await server.start(host: "127.0.0.1", port: 0)
        let stuck = try Client(port: port, receiveBuffer: 4096)
        stuck.send("GET /events HTTP/1.1\r\nHost: localhost\r\n\r\n")
        let reader = try await Self.stream(port: port)
        // Wait until both are registered.
        let deadline = Date().addingTimeInterval(30)
        while server.statistics.clients < 2, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        let payload = String(repeating: "x", count: 16 * 1024)
        // The socket buffers fill first (a few hundred kilobytes at most), then the channel's
        // 64 KiB: far fewer than 2000 events of 16 KiB. Bounded by that count, not by the clock:
        // on a loaded machine the reader's pace, not the time, decides how far it gets.
        var sent = 0
        while server.statistics.droppedClients == 0, sent < 2000 {
            sent += 1
            server.broadcast(ServerSentEvent(name: "bulk", data: "\(sent) \(payload)"))
            var chunk = ""
            chunk = await reader.read(until: "data: \(sent) ") ?? ""
            #expect(chunk.contains("data: \(sent) "))
        }
        let statistics = server.statistics
        #expect(statistics.droppedClients == 1, "\(statistics) after \(sent) events")
        #expect(statistics.droppedEvents == limits.dropsBeforeDisconnect, "\(statistics)")
        server.broadcast(ServerSentEvent(name: "last", data: "end"))
        var tail = ""
        tail = await reader.read(until: "event: last\ndata: end\n\n") ?? ""
        #expect(tail.contains("event: last\ndata: end\n\n"))
        #expect(server.statistics.clients == 1)
        await server.stop()
    }

    @Test("past maximumClients a stream is refused with 503, and counted")
    func full() async throws {
        var limits = EventStreamServer.Limits()
        limits.maximumClients = 1
        let server = Self.server(limits: limits)
        let port = try await server.start(host: "127.0.0.1", port: 0)
        // Held open for the whole test: the second stream finds the one place taken.
        let first = try await Self.stream(port: port)
        let second = try Client(port: port)
        var refused = ""
        second.send("GET /events HTTP/1.1\r\nHost: localhost\r\n\r\n")
        refused = await second.read(until: "too many clients\n") ?? ""
        #expect(refused.contains("too many clients\n"))
        #expect(refused.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"))
        #expect(server.statistics.refusedClients == 1)
        withExtendedLifetime(first) {}
        await server.stop()
    }

    @Test("a connection that sends no whole request within requestSeconds is closed, after its answer too; a stream is not")
    func unfinishedRequest() async throws {
        var limits = EventStreamServer.Limits()
        limits.requestSeconds = 1
        let server = Self.server(limits: limits)
        let port = try await server.start(host: "127.0.0.1", port: 0)
        let stream = try await Self.stream(port: port)
        // A request whose head never ends (a slow or stuck client, or one holding connections
        // open on purpose): without a deadline it would keep its descriptor for good.
        let partial = try Client(port: port)
        partial.send("GET / HTTP/1.1\r\nHost: localhost\r\n")
        #expect(await partial.closed(within: 60), "a request head that never ended kept its connection open")
        // A kept-alive connection that asks nothing more after its answer.
        let idle = try Client(port: port)
        idle.send("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(await idle.read(until: "<p>page</p>") != nil)
        #expect(await idle.closed(within: 60), "an idle kept-alive connection was never closed")
        // The stream, older than both, is open still and gets what is broadcast.
        server.broadcast(ServerSentEvent(name: "fix", data: "{\"seq\":1}"))
        #expect(await stream.read(until: "event: fix\ndata: {\"seq\":1}\n\n") != nil)
        #expect(server.statistics.clients == 1)
        await server.stop()
    }

    @Test("a client slow to read a large answer gets all of it: requestSeconds counts from when the answer is sent")
    func slowDownload() async throws {
        var limits = EventStreamServer.Limits()
        limits.requestSeconds = 1
        let body = [UInt8](repeating: UInt8(ascii: "x"), count: 4 << 20)
        let server = EventStreamServer(assets: ["/big": WebAsset(contentType: "text/plain", body: body)], limits: limits, snapshot: { [] })
        let port = try await server.start(host: "127.0.0.1", port: 0)
        // Asks for 4 MiB and reads none of it yet: far more than the sockets' buffers hold.
        let slow = try Client(port: port, receiveBuffer: 4096)
        slow.send("GET /big HTTP/1.1\r\nHost: localhost\r\n\r\n")
        // A later connection that never finishes its request is closed: requestSeconds have passed.
        let partial = try Client(port: port)
        partial.send("GET / HTTP/1.1\r\n")
        #expect(await partial.closed(within: 60))
        let bytes = await withCheckedContinuation { continuation in
            Thread {
                var total = 0, headerEnd: Int?, buffer = [UInt8](repeating: 0, count: 65_536), head = [UInt8]()
                while total < body.count {
                    let count = recv(slow.socket, &buffer, buffer.count, 0)
                    guard count > 0 else { break }
                    if let _ = headerEnd { total += count; continue }
                    head += buffer[0..<count]
                    if let end = head.indices.dropLast(3).first(where: { head[$0...].starts(with: [13, 10, 13, 10]) }) {
                        headerEnd = end
                        total = head.count - end - 4
                    }
                }
                continuation.resume(returning: total)
            }.start()
        }
        #expect(bytes == body.count, "the answer was cut off after \(bytes) of \(body.count) bytes")
        await server.stop()
    }

    @Test("a client that asks for an answer and never reads it is closed, and counted as dropped for not reading")
    func stalledDownload() async throws {
        var limits = EventStreamServer.Limits()
        limits.requestSeconds = 1
        limits.answerBytesPerSecond = 1 << 20
        let body = [UInt8](repeating: UInt8(ascii: "x"), count: 4 << 20)
        let server = EventStreamServer(assets: ["/big": WebAsset(contentType: "text/plain", body: body)], limits: limits, snapshot: { [] })
        let port = try await server.start(host: "127.0.0.1", port: 0)
        // 4 MiB asked for and none of it read: before, the connection stayed open for good.
        let stalled = try Client(port: port, receiveBuffer: 4096)
        stalled.send("GET /big HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(await waitUntil(timeout: .seconds(60)) { server.statistics.droppedClients == 1 },
                "a client that never read its answer kept its connection")
        #expect(await stalled.closed(within: 60))
        #expect(server.statistics.json.contains("\"dropped_clients\":1"))
        await server.stop()
    }

    @Test("a port in use is an error that says where")
    func inUse() async throws {
        let first = Self.server()
        let port = try await first.start(host: "127.0.0.1", port: 0)
        let second = Self.server()
        await #expect(throws: WebServeError.self) { _ = try await second.start(host: "127.0.0.1", port: port) }
        await second.stop()
        await first.stop()
    }
}
