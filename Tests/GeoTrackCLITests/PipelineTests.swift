import Foundation
import GPSReports
import GeoTrackService
import GeoTrackTesting
import LocationKit
import Logging
import Testing
@testable import GeoTrackCLI

/// One run through the service, as `watch` and `replay` make it, on a scripted source.
@MainActor
@Suite("From the source through the service to the outputs")
struct PipelineTests {
    static func positionFix(_ second: Double) -> Fix {
        var fix = Fix(mode: .threeD, time: Date(timeIntervalSince1970: 1_700_000_000 + second))
        fix.latitude = 51.5
        fix.longitude = -0.12
        return fix
    }

    static func output(stopAfter: Int?) -> TrackerOutput {
        TrackerOutput(display: StatusDisplay(mode: .silent, options: RenderOptions()), stopAfter: stopAfter)
    }

    static func run(_ steps: [ScriptedLocationSource.Step], clock: ManualClock = ManualClock(),
                    output: TrackerOutput) -> TrackingRun {
        let manager = LocationManager(source: ScriptedLocationSource(steps, clock: clock), clock: clock,
                                      authorizationStore: .inMemory(.authorizedAlways), logger: Logger(label: "test"))
        return TrackingRun(manager: manager, output: output)
    }

    @Test("--count stops after N positions, and the source's end is reported")
    func countAndEnd() async throws {
        let steps: [ScriptedLocationSource.Step] = [.state(.connected)] + (0..<5).map { .fix(Self.positionFix(Double($0))) }
            + [.state(.finished)]
        let three = Self.output(stopAfter: 3)
        let counted = Self.run(steps, output: three)
        let outcome = try await TrackerLoop.run(counted.verdicts, output: three, timeout: nil, clock: ContinuousClock())
        counted.stop()
        #expect(outcome == .countReached)
        #expect(three.positions == 3)
        let all = Self.output(stopAfter: nil)
        let whole = Self.run(steps, output: all)
        let ended = try await TrackerLoop.run(whole.verdicts, output: all, timeout: nil, clock: ContinuousClock())
        whole.stop()
        #expect(ended == .sourceFinished)
        #expect(all.positions == 5)
        #expect(all.lastStatus == .finished)
    }

    @Test("a replay's unreadable file ends the run with EX_NOINPUT; gpsd refused with --no-retry with EX_UNAVAILABLE")
    func failures() async throws {
        let unreadable = SourceError(.unreadableFile, message: "cannot open /nope.nmea: No such file or directory")
        let output = Self.output(stopAfter: nil)
        let missing = Self.run([.state(.connecting), .state(.disconnected(unreadable)), .state(.finished)], output: output)
        await #expect(throws: CLIError(.noInput, unreadable.message)) {
            _ = try await TrackerLoop.run(missing.verdicts, output: output, timeout: nil, clock: ContinuousClock())
        }
        missing.stop()
        let refused = SourceError.connectionRefused(host: "localhost", port: 1)
        let second = Self.output(stopAfter: nil)
        let noRetry = Self.run([.state(.connecting), .state(.disconnected(refused)), .state(.finished)], output: second)
        await #expect(throws: CLIError(.unavailable, refused.advisedMessage)) {
            _ = try await TrackerLoop.run(noRetry.verdicts, output: second, timeout: nil, clock: ContinuousClock())
        }
        noRetry.stop()
    }

    @Test("--timeout without a fix ends with EX_TEMPFAIL, on a manual clock, and names the true cause")
    func timeout() async throws {
        let clock = ManualClock()
        let refused = SourceError.connectionRefused(host: "localhost", port: 1)
        let output = Self.output(stopAfter: 1)
        let run = Self.run([.state(.connecting), .state(.disconnected(refused)), .state(.retrying(after: .seconds(1))),
                            .wait(.seconds(3600))], clock: ManualClock(), output: output)
        let waiting = Task {
            try await TrackerLoop.run(run.verdicts, output: output, timeout: .seconds(5), clock: clock)
        }
        // The source's events reach the service on the main actor; let them arrive before time runs out.
        _ = await run.service.status.firstMatching { if case .unreachable(_, _?) = $0 { true } else { false } }
        await clock.sleepers(atLeast: 1)
        clock.advance(by: .seconds(5))
        do {
            _ = try await waiting.value
            Issue.record("no timeout")
        } catch let error as CLIError {
            #expect(error.status == .temporaryFailure)
            #expect(error.message.contains("no fix within 5 s: gpsd was unreachable"), "\(error.message)")
            #expect(!error.message.contains("sky"))
        }
        run.stop()
        #expect(TrackerLoop.timeoutError(.seconds(5), positions: 0, status: .searching(seen: 3, used: 0)).message
            .contains("clear view of the sky"))
    }

    @Test("a fix before the timeout wins")
    func fixBeforeTimeout() async throws {
        let clock = ManualClock()
        let output = Self.output(stopAfter: 1)
        let run = Self.run([.state(.receiverPresent), .fix(Self.positionFix(0)), .wait(.seconds(3600))], output: output)
        let outcome = try await TrackerLoop.run(run.verdicts, output: output, timeout: .seconds(5), clock: clock)
        run.stop()
        #expect(outcome == .countReached)
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
