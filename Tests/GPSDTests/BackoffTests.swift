import GeoTrackTesting
import GPSD
import GPSReports
import Logging
import Testing

@Suite struct BackoffTests {
    @Test("a gpsd that accepts and at once closes gets a backoff that doubles, not a reconnect every second")
    func acceptThenCloseBacksOff() async throws {
        let server = try HostileGPSD(.acceptThenClose)
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
        #expect(server.accepted >= 5)
    }

    @Test("a refused connection (gpsd stopped or restarting) is retried at most every 2 s: the track resumes soon after gpsd does")
    func refusedIsRetriedOften() async throws {
        let port = try Loopback.freePort()
        let clock = ManualClock()
        let client = GPSDClient(configuration: GPSDConfiguration(host: "127.0.0.1", port: port,
                                                                 initialBackoff: .seconds(1), maximumBackoff: .seconds(30)),
                                clock: clock, logger: Logger(label: "BackoffTests"))
        var delays: [Duration] = []
        var errors: [SourceError.Code] = []
        for await event in client.events() {
            switch event {
            case .state(.disconnected(let error)):
                errors.append(error.code)
            case .state(.retrying(let delay)):
                delays.append(delay)
                if delays.count == 5 { break }
                await clock.sleepers(atLeast: 1)
                clock.advance(by: delay)
            default:
                continue
            }
            if delays.count == 5 { break }
        }
        #expect(errors.allSatisfy { $0 == .connectionRefused } && !errors.isEmpty, "\(errors)")
        #expect(delays == [.seconds(1), .seconds(2), .seconds(2), .seconds(2), .seconds(2)])
    }
}
