import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A scripted fake gpsd on a free loopback port, for what a real gpsd never does: garbage,
/// NaN, impossible values, a 10 MB line, terminal escapes, a flood of reports, closing at once,
/// saying nothing, or never completing the connect at all.
///
/// It is not a gpsd (the tests of normal behaviour use a real one under ``GPSFake``): it speaks
/// no protocol, writes its script to every client it accepts and ignores what the client
/// sends. Call ``stop()`` when done.
public final class HostileGPSD: Sendable {
    /// What it does with each connection.
    public enum Script: Sendable {
        /// Accepts, writes `chunks` in order, then closes (`closeAfter`) or stays silent.
        case send([Chunk], closeAfter: Bool)
        /// Accepts and closes at once.
        case acceptThenClose
        /// Accepts and never writes.
        case acceptThenSilence
        /// Never accepts, with its queue full: a connect never completes (the kernel drops
        /// the SYN), as with a gpsd host whose firewall drops packets.
        case neverComplete
    }

    /// A piece of a script.
    public enum Chunk: Sendable {
        /// A line, followed by CR LF as gpsd ends its lines.
        case line(String)
        /// Bytes as they are.
        case bytes([UInt8])
        /// `count` copies of `byte`, written in pieces (a 10 MB line needs no 10 MB array).
        case repeated(UInt8, count: Int)
        /// `count` lines, the line for each index made as it is written: a flood of reports
        /// as fast as the client reads them, with no array of all of them.
        case lines(count: Int, make: @Sendable (Int) -> String)
    }

    /// The loopback port it listens on.
    public let port: Int
    private let listener: Int32
    private let state = Mutex(State())

    private struct State {
        var accepted = 0
        var clients: [Int32] = []
        var fillers: [Int32] = []
        var stopped = false
    }

    /// How many connections it accepted.
    public var accepted: Int { state.withLock { $0.accepted } }

    /// Starts listening on 127.0.0.1 with `script`.
    public init(_ script: Script) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket: \(String(cString: strerror(errno)))") }
        var address = Loopback.address(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        // A backlog of 0 makes the accept queue as short as Linux allows, for neverComplete.
        let backlog: Int32 = if case .neverComplete = script { 0 } else { 16 }
        guard bound == 0, named == 0, listen(fd, backlog) == 0 else {
            close(fd)
            throw HarnessError("cannot listen on loopback: \(String(cString: strerror(errno)))")
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        if case .neverComplete = script {
            try fillQueue()
            return
        }
        let thread = Thread { [self] in serve(script) }
        thread.start()
    }

    deinit {
        stop()
        close(listener)
    }

    /// Stops listening and closes every connection. The serving thread holds this object, so
    /// the listener itself is closed only once that thread has left `accept`.
    public func stop() {
        let descriptors = state.withLock { state -> [Int32]? in
            if state.stopped { return nil }
            state.stopped = true
            defer { state.clients = []; state.fillers = [] }
            return state.clients + state.fillers
        }
        guard let descriptors else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        for descriptor in descriptors {
            shutdown(descriptor, Int32(SHUT_RDWR))
            close(descriptor)
        }
    }

    /// Connects to itself until the accept queue is full. With a backlog of 0 Linux queues one
    /// connection; the fillers beyond it stay in SYN-SENT, and so will any client after them.
    private func fillQueue() throws {
        for _ in 0..<4 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw HarnessError("socket: \(String(cString: strerror(errno)))") }
            let flags = fcntl(fd, F_GETFL, 0)
            _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
            var address = Loopback.address(port: port)
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            state.withLock { $0.fillers.append(fd) }
        }
    }

    private func serve(_ script: Script) {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            let admitted = state.withLock { state -> Bool in
                if state.stopped { return false }
                state.accepted += 1
                state.clients.append(client)
                return true
            }
            guard admitted else {
                close(client)
                continue
            }
            switch script {
            case .acceptThenClose:
                forget(client)
            case .acceptThenSilence, .neverComplete:
                continue
            case .send(let chunks, let closeAfter):
                for chunk in chunks where !write(chunk, to: client) { break }
                if closeAfter { forget(client) }
            }
        }
    }

    private func forget(_ client: Int32) {
        let owned = state.withLock { state -> Bool in
            guard let index = state.clients.firstIndex(of: client) else { return false }
            state.clients.remove(at: index)
            return true
        }
        if owned { close(client) }
    }

    /// Writes a chunk; false once the client is gone (never raising SIGPIPE).
    private func write(_ chunk: Chunk, to client: Int32) -> Bool {
        switch chunk {
        case .line(let text):
            return send(Array(text.utf8) + [0x0D, 0x0A], to: client)
        case .bytes(let bytes):
            return send(bytes, to: client)
        case .repeated(let byte, let count):
            let piece = [UInt8](repeating: byte, count: 65_536)
            var left = count
            while left > 0 {
                let size = min(left, piece.count)
                guard send(Array(piece[0..<size]), to: client) else { return false }
                left -= size
            }
            return true
        case .lines(let count, let make):
            for index in 0..<count where !send(Array(make(index).utf8) + [0x0D, 0x0A], to: client) {
                return false
            }
            return true
        }
    }

    private func send(_ bytes: [UInt8], to client: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes {
                Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            offset += count
        }
        return true
    }
}
