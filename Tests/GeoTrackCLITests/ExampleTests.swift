import Foundation
import GeoTrackTesting
import Testing

/// The example program (`Examples/LiveMonitor`): liveUpdates, Monitor and ServiceSession on a
/// replayed corpus log, written against `import GeoTrackKit` alone.
@Suite struct ExampleTests {
    static var example: String {
        URL(fileURLWithPath: TestSupport.binary).deletingLastPathComponent().appendingPathComponent("geotrack-example").path
    }

    static var log: String { get throws { try Corpus.path("sl869.nmea") } }

    @Test("it prints what the session, the live updates and the monitor saw; a second run starts from the saved monitor")
    func runsOnACorpusLog() async throws {
        let home = try TestSupport.temporaryDirectory()
        let environment = ["XDG_STATE_HOME": home.appendingPathComponent("state").path, "HOME": home.path]
        // The positions geotrack's own replay prints: the live updates must see as many.
        let replay = try await TestSupport.geotrack(["replay", try Self.log, "--json"], home: home)
        let positions = replay.stdout.split(separator: "\n").filter { $0.contains("\"lat\":") && !$0.contains("\"mode\":1") }.count
        #expect(positions == 8)

        let first = try await TestSupport.run(Self.example, [try Self.log], environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        let lines = first.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "session: nothing missing")
        #expect(lines.contains { $0.hasPrefix("monitor: watching 40 m around -33.679") })
        #expect(lines.contains("monitor: start unsatisfied"), "\(lines)")
        #expect(lines.last == "live updates: \(positions) locations, \(positions) simulated, 0 stationary")

        let second = try await TestSupport.run(Self.example, [try Self.log], environment: environment)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("monitor: remembers start unsatisfied\n"), "\(second.stdout)")
        #expect(!second.stdout.contains("monitor: watching"))
        let saved = home.appendingPathComponent("state/geotrack/monitors/example.json").path
        #expect(try String(contentsOfFile: saved, encoding: .utf8).contains("\"state\" : \"unsatisfied\""))
    }

    @Test("docs/LOCATIONKIT.md shows what it prints on the corpus log, line for line")
    func documentedTranscript() async throws {
        let page = try String(contentsOf: TestSupport.packageRoot.appendingPathComponent("docs/LOCATIONKIT.md"), encoding: .utf8)
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        let command = try #require(lines.firstIndex(of: "$ swift run geotrack-example Tests/Fixtures/nmea-corpus/sl869.nmea"))
        let end = try #require(lines[command...].firstIndex(of: "```"))
        let documented = Array(lines[(command + 1)..<end])
        #expect(documented.count == 5)

        let home = try TestSupport.temporaryDirectory()
        let environment = ["XDG_STATE_HOME": home.appendingPathComponent("state").path, "HOME": home.path]
        let run = try await TestSupport.run(Self.example, [try Self.log], environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.split(separator: "\n").map(String.init) == documented)
    }

    @Test("a file it cannot replay is one error line and geotrack's status: 66 missing, 65 not a log; no count of 0 locations")
    func unreadable() async throws {
        let home = try TestSupport.temporaryDirectory()
        let environment = ["XDG_STATE_HOME": home.appendingPathComponent("state").path, "HOME": home.path]
        let missing = home.appendingPathComponent("missing.nmea").path
        let absent = try await TestSupport.run(Self.example, [missing], environment: environment)
        #expect(absent.status == 66, "\(absent.stderr)")
        #expect(absent.stderr == "geotrack-example: cannot replay \(missing): no such file. Check the path.\n")
        #expect(!absent.stdout.contains("live updates"), "\(absent.stdout)")

        let text = home.appendingPathComponent("notes.txt")
        try "not a log\n".write(to: text, atomically: true, encoding: .utf8)
        let notALog = try await TestSupport.run(Self.example, [text.path], environment: environment)
        #expect(notALog.status == 65, "\(notALog.stderr)")
        #expect(notALog.stderr.hasPrefix("geotrack-example: \(text.path) holds no NMEA sentence"), "\(notALog.stderr)")
        #expect(notALog.stderr.split(separator: "\n").count == 1, "\(notALog.stderr)")
        #expect(!notALog.stdout.contains("live updates"), "\(notALog.stdout)")
    }

    @Test("over a log longer than 256 fixes every location arrives, and a relaunch reads the monitor's event date back exactly")
    func longLogAndExactDates() async throws {
        let home = try TestSupport.temporaryDirectory()
        let environment = ["XDG_STATE_HOME": home.appendingPathComponent("state").path, "HOME": home.path]
        let log = home.appendingPathComponent("long.nmea").path
        // 601 cycles, 600 fixes at 13 m/s, each 0.936 s past its second.
        try SyntheticLog.writeNMEA(cycles: 601, fraction: "936", to: log)

        let first = try await TestSupport.run(Self.example, [log], environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        let lines = first.stdout.split(separator: "\n").map(String.init)
        #expect(lines.last == "live updates: 600 locations, 600 simulated, 0 stationary", "\(lines.suffix(3))")
        #expect(lines.contains("monitor: start unsatisfied"), "\(lines)")
        let dated = try #require(lines.first { $0.hasPrefix("monitor: start dated ") })
        let seconds = try #require(Double(dated.dropFirst("monitor: start dated ".count)))
        // The time of a fix soon after the start (the circle is 40 m, the track does 13 m/s),
        // with its fraction: the date a whole-second file would have changed.
        let start = try #require(Calendar(identifier: .gregorian).date(from: DateComponents(
            timeZone: TimeZone(identifier: "UTC"), year: 2025, month: 9, day: 12, hour: 9)))
        let offset = seconds - start.timeIntervalSinceReferenceDate
        #expect(offset > 1 && offset < 20, "\(dated)")
        #expect(abs(offset - offset.rounded(.down) - 0.936) < 1e-6, "\(dated)")

        // A new process: the date it reads back is the one delivered, to the last bit.
        let second = try await TestSupport.run(Self.example, [log], environment: environment)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("monitor: remembers start unsatisfied\n"), "\(second.stdout)")
        #expect(second.stdout.contains("monitor: remembers start dated \(seconds)\n"), "\(second.stdout)")
    }

    @Test("a wrong call says how to call it, with status 64")
    func usage() async throws {
        let run = try await TestSupport.run(Self.example, [])
        #expect(run.status == 64)
        #expect(run.stderr.hasPrefix("geotrack-example: usage: geotrack-example LOG [RADIUS]"))
    }
}
