import Foundation
import Testing

@Suite("replay")
struct ReplayTests {
    static let log = TestSupport.packageRoot.appendingPathComponent("Tests/GPSDTests/Logs/garmin15x.nmea").path

    @Test("replay FILE --json: one TPV line per fix (the 6 gpsd reports for this log), exit 0")
    func json() async throws {
        let home = try TestSupport.temporaryDirectory()
        let run = try await TestSupport.geotrack(["replay", Self.log, "--json"], home: home)
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 6)
        #expect(lines.allSatisfy { $0.hasPrefix("{\"class\":\"TPV\"") && $0.hasSuffix("}") })
        // No authorization needed: the state directory was never written.
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("state").path))
        let stdin = try await TestSupport.geotrack(["replay", "-", "--json"], home: home,
                                             input: try String(contentsOfFile: Self.log, encoding: .utf8))
        #expect(stdin.status == 0)
        #expect(stdin.stdout.split(separator: "\n").count == 6)
    }

    @Test("a missing file or a directory: one line on stderr and nothing else, exit 66, with --json or the status line",
          arguments: ["/nonexistent/track.nmea", "/tmp"], [["--json"], []])
    func missing(path: String, output: [String]) async throws {
        let run = try await TestSupport.geotrack(["replay", path] + output, home: try TestSupport.temporaryDirectory())
        #expect(run.status == 66)
        #expect(run.stdout.isEmpty, "\(run.stdout)")
        #expect(run.stderr.hasPrefix("geotrack: "))
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(run.stderr.contains(path))
    }

    @Test("replay --gpx writes a valid track that replays to the same positions; --count stops early")
    func gpxRoundTrip() async throws {
        let home = try TestSupport.temporaryDirectory()
        let gpx = try await TestSupport.replayToGPX(Self.log, named: "out.gpx", home: home)
        let text = try String(contentsOfFile: gpx, encoding: .utf8)
        #expect(text.components(separatedBy: "<trkpt ").count - 1 == 6)
        #expect(text.contains("<gpxtpx:speed>"))
        let back = try await TestSupport.geotrack(["replay", gpx, "--json"], home: home)
        #expect(back.status == 0)
        #expect(back.stdout.split(separator: "\n").count == 6)
        let counted = try await TestSupport.geotrack(["replay", Self.log, "--json", "--count", "3"], home: home)
        #expect(counted.status == 0)
        #expect(counted.stdout.split(separator: "\n").count == 3)
    }

    @Test("without a terminal the status goes out as plain lines without escape codes")
    func plainLines() async throws {
        let run = try await TestSupport.geotrack(["replay", Self.log], home: try TestSupport.temporaryDirectory())
        #expect(run.status == 0)
        #expect(!run.stdout.contains("\u{1B}"))
        #expect(run.stdout.contains("3D  32.6485"))
        #expect(run.stdout.hasSuffix("end of \(Self.log)\n"))
    }

    @Test("--realtime --speed keeps the recorded pace, sped up")
    func paced() async throws {
        let started = Date()
        let run = try await TestSupport.geotrack(["replay", Self.log, "--json", "--speed", "4"], home: try TestSupport.temporaryDirectory())
        let elapsed = Date().timeIntervalSince(started)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.split(separator: "\n").count == 6)
        // Six fixes a second apart take at least 1.25 s at four times the pace: a replay that
        // ignored the pace would end sooner. How much longer a loaded machine takes says nothing
        // (PacingTests hold the schedule itself to a manual clock).
        #expect(elapsed >= 1.25, "took \(elapsed) s")
    }
}
