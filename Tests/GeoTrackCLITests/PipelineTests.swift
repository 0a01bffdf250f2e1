import Foundation
import GPSReports
import GeoTrackTesting
import Testing
@testable import GeoTrackCLI

@Suite("From source events to the status line")
struct PipelineTests {
    static func positionFix(_ second: Double) -> Fix {
        var fix = Fix(mode: .threeD, time: Date(timeIntervalSince1970: 1_700_000_000 + second))
        fix.latitude = 51.5
        fix.longitude = -0.12
        return fix
    }

    static func sky(seen: Int, used: Int) -> SkyView {
        SkyView(satellites: (0..<seen).map { Satellite(prn: $0 + 1, used: $0 < used) })
    }

    @Test("connecting, searching, a fix, stale, a lost connection with a countdown, a reconnection")
    func reduceLife() {
        var reducer = SourceReducer(sourceName: "gpsd at localhost:2947")
        #expect(reducer.reduce(.state(.connecting)) == [.status(.starting("connecting to gpsd at localhost:2947"))])
        #expect(reducer.reduce(.state(.connected)) == [.status(.searching(seen: 0, used: 0))])
        #expect(reducer.reduce(.report(.sky(Self.sky(seen: 9, used: 0)))) == [.status(.searching(seen: 9, used: 0))])
        #expect(reducer.reduce(.report(.fix(Fix(mode: .noFix)))) == [.status(.searching(seen: 9, used: 0))])
        #expect(reducer.reduce(.report(.sky(Self.sky(seen: 9, used: 6)))) == [.status(.searching(seen: 9, used: 6))])
        let summary = FixSummary(fix: Self.positionFix(0), satellitesUsed: 6)
        #expect(reducer.reduce(.report(.fix(Self.positionFix(0)))) == [.location(summary), .status(.fix(summary))])
        #expect(reducer.reduce(.state(.stale)) == [.status(.stale(summary))])
        let refused = SourceError.connectionRefused(host: "localhost", port: 2947)
        #expect(reducer.reduce(.state(.disconnected(refused))) == [
            .event(.disconnected(refused.message)),
            .status(.gpsdUnreachable(reason: refused.message, retryingIn: nil)),
        ])
        #expect(reducer.reduce(.state(.retrying(after: .seconds(2)))) == [
            .status(.gpsdUnreachable(reason: refused.message, retryingIn: .seconds(2))),
        ])
        // A second failure while already down is not a new event.
        #expect(reducer.reduce(.state(.disconnected(refused))) == [.status(.gpsdUnreachable(reason: refused.message, retryingIn: nil))])
        #expect(reducer.reduce(.state(.connected)) == [
            .event(.reconnected("gpsd at localhost:2947")), .status(.searching(seen: 9, used: 6)),
        ])
    }

    @Test("no receiver, a sensor heading wins over the course, a replay's end")
    func reduceOthers() {
        var reducer = SourceReducer(sourceName: "track.nmea")
        #expect(reducer.reduce(.state(.receiverAbsent)) == [.status(.noReceiver)])
        _ = reducer.reduce(.report(.attitude(Attitude(heading: 123))))
        var fix = Self.positionFix(0)
        fix.track = 275
        let updates = reducer.reduce(.report(.fix(fix)))
        #expect(updates.first == .location(FixSummary(fix: fix, heading: 123)))
        #expect(reducer.reduce(.state(.finished)) == [.status(.finished("end of track.nmea"))])
    }

    static func output(stopAfter: Int?) -> TrackerOutput {
        TrackerOutput(display: StatusDisplay(mode: .silent, options: RenderOptions()), json: nil,
                      encode: { _ in "" }, gpx: nil, stopAfter: stopAfter)
    }

    @Test("--count stops after N positions, and the source's end is reported")
    func countAndEnd() async throws {
        let events: [SourceEvent] = [.state(.connected)] + (0..<5).map { .report(.fix(Self.positionFix(Double($0)))) }
            + [.state(.finished)]
        let three = Self.output(stopAfter: 3)
        let outcome = try await TrackerLoop.run(SourceUpdates(Self.stream(events), sourceName: "x", failOnDisconnect: true),
                                                output: three, timeout: nil, clock: ContinuousClock())
        #expect(outcome == .countReached)
        #expect(three.positions == 3)
        let all = Self.output(stopAfter: nil)
        let ended = try await TrackerLoop.run(SourceUpdates(Self.stream(events), sourceName: "x", failOnDisconnect: true),
                                              output: all, timeout: nil, clock: ContinuousClock())
        #expect(ended == .sourceFinished)
        #expect(all.positions == 5)
    }

    @Test("a replay's unreadable file ends the run with EX_NOINPUT; gpsd refused with --no-retry with EX_UNAVAILABLE")
    func failures() async throws {
        let unreadable = SourceError(.unreadableFile, message: "cannot open /nope.nmea: No such file or directory")
        await #expect(throws: CLIError(.noInput, unreadable.message)) {
            _ = try await TrackerLoop.run(SourceUpdates(Self.stream([.state(.disconnected(unreadable)), .state(.finished)]),
                                                        sourceName: "x", failOnDisconnect: true),
                                          output: Self.output(stopAfter: nil), timeout: nil, clock: ContinuousClock())
        }
        let refused = SourceError.connectionRefused(host: "localhost", port: 1)
        await #expect(throws: CLIError(.unavailable, refused.message)) {
            _ = try await TrackerLoop.run(SourceUpdates(Self.stream([.state(.connecting), .state(.disconnected(refused))]),
                                                        sourceName: "x", failOnDisconnect: true),
                                          output: Self.output(stopAfter: nil), timeout: nil, clock: ContinuousClock())
        }
    }

    @Test("--timeout without a fix ends with EX_TEMPFAIL, on a manual clock")
    func timeout() async throws {
        let clock = ManualClock()
        let (events, continuation) = AsyncStream.makeStream(of: SourceEvent.self)
        continuation.yield(.state(.connected))
        let output = Self.output(stopAfter: 1)
        let run = Task {
            try await TrackerLoop.run(SourceUpdates(events, sourceName: "x", failOnDisconnect: false),
                                      output: output, timeout: .seconds(5), clock: clock)
        }
        await clock.sleepers(atLeast: 1)
        clock.advance(by: .seconds(5))
        do {
            _ = try await run.value
            Issue.record("no timeout")
        } catch let error as CLIError {
            #expect(error.status == .noFix)
            #expect(error.message.contains("no fix within 5 s"))
        }
        continuation.finish()
    }

    @Test("a fix before the timeout wins")
    func fixBeforeTimeout() async throws {
        let clock = ManualClock()
        let output = Self.output(stopAfter: 1)
        let outcome = try await TrackerLoop.run(
            SourceUpdates(Self.stream([.report(.fix(Self.positionFix(0)))]), sourceName: "x", failOnDisconnect: false),
            output: output, timeout: .seconds(5), clock: clock)
        #expect(outcome == .countReached)
    }

    static func stream(_ events: [SourceEvent]) -> AsyncStream<SourceEvent> {
        AsyncStream { continuation in
            for event in events { continuation.yield(event) }
            continuation.finish()
        }
    }
}

@Suite("Command-line values")
struct ArgumentTests {
    @Test("--gpsd addresses", arguments: [
        ("example.org:3000", "example.org", 3000), ("example.org", "example.org", nil), (":3000", nil, 3000),
        ("[::1]:2947", "::1", 2947), ("[::1]", "::1", nil),
    ] as [(String, String?, Int?)])
    func addresses(text: String, host: String?, port: Int?) throws {
        let address = try #require(GPSDAddress(argument: text))
        #expect(address.host == host)
        #expect(address.port == port)
    }

    @Test("bad --gpsd addresses are refused", arguments: ["", ":", "host:0", "host:99999", "host:x", "a b", "[::1"])
    func badAddresses(text: String) {
        #expect(GPSDAddress(argument: text) == nil)
    }

    @Test("prompt answers")
    func answers() {
        #expect(TerminalPrompter.parse("o") == .once)
        #expect(TerminalPrompter.parse(" Always ") == .always)
        #expect(TerminalPrompter.parse("d") == .deny)
        #expect(TerminalPrompter.parse("maybe") == nil)
    }
}
