import Foundation
import GeoTrackTesting
import Testing

/// `watch --publish` with the broker down, as a person sees it: the status line says that
/// messages wait and that the broker cannot be reached, and however the run ends, a last line
/// says how many wait and how to send them.
@Suite("publishing on the status line", .serialized)
struct PublishStatusTests {
    static let log = TestSupport.packageRoot.appendingPathComponent("Tests/GPSDTests/Logs/garmin15x.nmea").path

    /// The number before "queued, the broker's host refused the connection" on `line`: nothing
    /// listens on the port, and the line names that reason, as the note at the end does.
    static func queued(_ line: String) -> Int? {
        guard let range = line.range(of: " queued, the broker's host refused the connection") else { return nil }
        return Int(line[..<range.lowerBound].split(separator: " ").last ?? "")
    }

    @Test("broker down: the line counts what waits; Ctrl-C or SIGTERM ends the run at once and says how to send it",
          arguments: ["C-c", "SIGTERM"])
    func brokerDown(ending: String) async throws {
        let gpsd = try await GPSFake(log: Self.log, once: false)
        let home = try await StatusTerminalTests.grantedHome()
        let port = try GeoTrackTesting.GPSFake.freePort()
        let url = "mqtt://127.0.0.1:\(port)"
        let session = try await TmuxSession(width: 200, height: 12,
                                      command: [TestSupport.binary, "watch", "--gpsd", gpsd.address, "--publish", url,
                                                "--publish-user", "ann", "--publish-device", "van"],
                                      environment: StatusTerminalTests.environment(home))
        // Several fixes queued while the broker refuses: the count grows on the line.
        let screen = try await session.waitFor("messages queued for the unreachable broker") { lines in
            lines.contains { (Self.queued($0) ?? 0) >= 3 }
        }
        let line = try #require(screen.first { Self.queued($0) != nil })
        #expect(WatchEndToEndTests.isFixLine(line) && line.prefix(20).contains("°"), "the fix stays first: \(line)")
        #expect(line.contains(" · "), "\(line)")

        if ending == "SIGTERM" {
            await kill(try session.commandPID(), SIGTERM)
        } else {
            try await session.send("C-c")
        }
        // A signal does not wait for the broker: no --publish-wait here, only the ceiling of a hang.
        #expect(try await session.waitForExit(timeout: 10) == 0)
        let after = try await session.lines()
        let note = try #require(after.first { $0.hasPrefix("geotrack: ") }, "no note at the end: \(after)")
        let listed = try await TestSupport.geotrack(["outbox", "--json"], home: home)
        let summary = try #require(JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])
        let waiting = try #require(summary["messages"] as? Int)
        #expect(waiting >= 3)
        #expect(note.hasPrefix("geotrack: \(waiting) messages wait in the outbox for \(url)/owntracks/ann/van"), "\(note)")
        // The note wraps past the window's 200 columns: read it whole, from its first row on.
        let whole = after.drop { !$0.hasPrefix("geotrack: ") }.joined()
        #expect(whole.contains(" (cannot connect: the broker's host refused the connection: check the URL's port, and that the broker runs); the next run sends them, or 'geotrack outbox flush'"), "\(whole)")
        // The status line is left above the note, not written over.
        #expect(after.first { Self.queued($0) != nil } != nil, "\(after)")
    }
}
