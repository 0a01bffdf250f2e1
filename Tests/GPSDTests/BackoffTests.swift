import GeoTrackTesting
import GPSD
import GPSReports
import Logging
import Testing

@Suite struct BackoffTests {
    /// The first `count` retry delays of a client of `host:port` with these backoffs, and the
    /// errors and connections before them; the clock moves on by exactly each delay.
    static func retries(port: Int, initial: Duration, maximum: Duration, count: Int) async
        -> (delays: [Duration], errors: [SourceError.Code], connected: Bool) {
        let clock = ManualClock()
        let client = GPSDClient(configuration: GPSDConfiguration(host: "127.0.0.1", port: port,
                                                                 initialBackoff: initial, maximumBackoff: maximum),
                                clock: clock, logger: Logger(label: "BackoffTests"))
        var delays: [Duration] = []
        var errors: [SourceError.Code] = []
        var connected = false
        for await event in client.events() {
            switch event {
            case .state(.connected):
                connected = true
            case .state(.disconnected(let error)):
                errors.append(error.code)
            case .state(.retrying(let delay)):
                delays.append(delay)
                if delays.count == count { return (delays, errors, connected) }
                // Let the session sleep on the clock, then move time on by exactly its delay.
                await clock.sleepers(atLeast: 1)
                clock.advance(by: delay)
            default:
                continue
            }
        }
        return (delays, errors, connected)
    }

    @Test("a gpsd that accepts and at once closes gets a backoff that doubles, not a reconnect every second")
    func acceptThenCloseBacksOff() async throws {
        let server = try HostileGPSD(.acceptThenClose)
        defer { server.stop() }
        let run = await Self.retries(port: server.port, initial: .seconds(1), maximum: .seconds(8), count: 5)
        #expect(run.connected, "the server never accepted")
        #expect(run.delays == [.seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(8)])
        #expect(server.accepted >= 5)
    }

    @Test("a refused connection (gpsd stopped or restarting) is retried at most every 2 s: the track resumes soon after gpsd does")
    func refusedIsRetriedOften() async throws {
        let run = await Self.retries(port: try Loopback.freePort(), initial: .seconds(1), maximum: .seconds(30), count: 5)
        #expect(!run.errors.isEmpty && run.errors.allSatisfy { $0 == .connectionRefused }, "\(run.errors)")
        #expect(run.delays == [.seconds(1), .seconds(2), .seconds(2), .seconds(2), .seconds(2)])
    }
}
