import Foundation
import GeoTrackTesting
import GPSD
import GPSReports
import Logging
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A server on a free loopback port that accepts every connection and closes it at once, as a
/// broken gpsd (or another program on its port) would.
final class AcceptThenClose: Sendable {
    let port: Int
    let accepted = Mutex(0)
    private let listener: Int32

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard fd >= 0, bound == 0, listen(fd, 16) == 0 else { throw CancellationError() }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in
            while true {
                let client = accept(listener, nil, nil)
                if client < 0 { return }
                accepted.withLock { $0 += 1 }
                close(client)
            }
        }
        thread.start()
    }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}

@Suite struct BackoffTests {
    @Test("a gpsd that accepts and at once closes gets a backoff that doubles, not a reconnect every second")
    func acceptThenCloseBacksOff() async throws {
        let server = try AcceptThenClose()
        defer { server.stop() }
        let clock = ManualClock()
        let client = GPSDClient(configuration: GPSDConfiguration(host: "127.0.0.1", port: server.port,
                                                                 initialBackoff: .seconds(1), maximumBackoff: .seconds(8)),
                                clock: clock, logger: Logger(label: "BackoffTests"))
        var delays: [Duration] = []
        var sawConnected = false
        for await event in client.events() {
            switch event {
            case .state(.connected):
                sawConnected = true
            case .state(.retrying(let delay)):
                delays.append(delay)
                if delays.count == 5 { break }
                // Let the session sleep on the clock, then move time on by exactly its delay.
                await clock.sleepers(atLeast: 1)
                clock.advance(by: delay)
            default:
                continue
            }
            if delays.count == 5 { break }
        }
        #expect(sawConnected, "the server never accepted")
        #expect(delays == [.seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(8)])
        #expect(server.accepted.withLock { $0 } >= 5)
    }
}
