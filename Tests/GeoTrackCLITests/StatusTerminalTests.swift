import Foundation
import GeoTrackTesting
import Testing

/// The status line as a newcomer meets it, in a real terminal (tmux): why gpsd cannot be reached
/// at 80 columns and narrower, and a clean line when the window narrows.
@Suite("status line in a terminal", .serialized)
struct StatusTerminalTests {
    /// A home where location access is granted (`geotrack auth grant` with its own XDG_STATE_HOME).
    static func grantedHome() async throws -> URL {
        let home = try TestSupport.temporaryDirectory()
        let grant = try await TestSupport.geotrack(["auth", "grant"], home: home)
        #expect(grant.status == 0, "\(grant.stderr)")
        return home
    }

    static func environment(_ home: URL) -> [String: String] {
        ["XDG_STATE_HOME": home.appendingPathComponent("state").path, "XDG_CONFIG_HOME": home.path, "HOME": home.path]
    }

    @Test("gpsd down at 80×24 and narrower: the screen says connection refused, where, and what to check",
          arguments: [
              (80, "gpsd unreachable: connection refused at 127.0.0.1:PORT (is gpsd running?)"),
              (40, "gpsd unreachable: connection refused"),
          ])
    func gpsdDown(width: Int, expected: String) async throws {
        let home = try await Self.grantedHome()
        let port = try GeoTrackTesting.GPSFake.freePort()
        let session = try await TmuxSession(width: width, height: 24, command: [TestSupport.binary, "--gpsd", "127.0.0.1:\(port)"],
                                      environment: Self.environment(home))
        let line = expected.replacingOccurrences(of: "PORT", with: "\(port)")
        // The countdown comes and goes with the width it needs; the reason is there throughout.
        let screen = try await session.waitFor("the cause on the status line") { $0 == [line] }
        #expect(screen.allSatisfy { $0.count <= width - 1 })
        try await session.send("C-c")
        #expect(try await session.waitForExit(timeout: 10) == 0)
    }

    @Test("an unknown gpsd host at 80 columns: the screen says the name does not resolve")
    func unknownHost() async throws {
        let home = try await Self.grantedHome()
        let session = try await TmuxSession(width: 80, height: 24, command: [TestSupport.binary, "--gpsd", "nohost.invalid:2947"],
                                      environment: Self.environment(home))
        try await session.waitFor("the unknown host on the status line") {
            $0 == ["gpsd unreachable: host nohost.invalid does not resolve (check the host name)"]
        }
        try await session.send("C-c")
        #expect(try await session.waitForExit(timeout: 10) == 0)
    }

    @Test("sky at 80×24 with gpsd down: its status panel says why, over as many lines as it needs")
    func skyGpsdDown() async throws {
        let home = try await Self.grantedHome()
        let port = try GeoTrackTesting.GPSFake.freePort()
        let session = try await TmuxSession(width: 80, height: 24, command: [TestSupport.binary, "sky", "--gpsd", "127.0.0.1:\(port)"],
                                      environment: Self.environment(home))
        // The left column is the panel: its first 39 columns.
        let panel = { (lines: [String]) in lines.map { String($0.prefix(39)).replacingOccurrences(of: #"\s+$"#, with: "", options: .regularExpression) } }
        try await session.waitFor("the reason in sky's status") { lines in
            let left = panel(lines)
            guard let start = left.firstIndex(of: "Status    gpsd unreachable:"), left.count > start + 3 else { return false }
            return Array(left[start + 1...start + 3]) == ["          connection refused", "          at 127.0.0.1:\(port)",
                                                          "          (is gpsd running?)"]
        }
        try await session.send("C-c")
        #expect(try await session.waitForExit(timeout: 10) == 0)
    }

    @Test("narrowing the window leaves no piece of the older, longer line", arguments: [40, 25])
    func narrowing(to narrow: Int) async throws {
        let home = try await Self.grantedHome()
        let port = try GeoTrackTesting.GPSFake.freePort()
        // Lines above the status line, as a shell's prompt and earlier output would be: the rows
        // a rewrapped line spreads over are on screen, not scrolled away.
        let script = "printf 'one\\ntwo\\nthree\\n'; exec " + TmuxSession.quote(TestSupport.binary)
            + " --gpsd 127.0.0.1:\(port)"
        let session = try await TmuxSession(width: 200, height: 12, command: ["/bin/sh", "-c", script],
                                      environment: Self.environment(home))
        try await session.waitFor("the whole line, countdown included") { lines in
            lines.count == 4 && lines[3].contains("sudo systemctl start gpsd)  retrying in ")
        }
        try await session.resize(width: narrow)
        let expected = narrow == 40 ? "gpsd unreachable: connection refused" : "gpsd unreachable: conne…"
        // tmux rewraps the old line and may scroll the rows above it away; what stays on screen
        // is the earlier output and the one fitted line, nothing of the old one.
        let screen = try await session.waitFor("one line fitted to \(narrow) columns and nothing else") { lines in
            lines.last == expected && lines.dropLast().allSatisfy { ["one", "two", "three"].contains($0) }
        }
        #expect(screen.allSatisfy { $0.count <= narrow - 1 })
        // Wider again: the line grows back, still alone on its row.
        try await session.resize(width: 120)
        try await session.waitFor("the line refitted to 120 columns") { lines in
            lines.last?.hasPrefix("gpsd unreachable: connection refused at 127.0.0.1:\(port) (is gpsd running? sudo") == true
                && lines.dropLast().allSatisfy { ["one", "two", "three"].contains($0) }
        }
        try await session.send("C-c")
        #expect(try await session.waitForExit(timeout: 10) == 0)
    }

    @Test("fleet: narrowing the window redraws the view at its width and leaves nothing of the wider one")
    func fleetNarrowing() async throws {
        let home = try TestSupport.temporaryDirectory()
        let port = try GeoTrackTesting.GPSFake.freePort()
        let script = "printf 'one\\ntwo\\nthree\\n'; exec " + TmuxSession.quote(TestSupport.binary)
            + " fleet mqtt://127.0.0.1:\(port)"
        let session = try await TmuxSession(width: 200, height: 12, command: ["/bin/sh", "-c", script],
                                      environment: Self.environment(home))
        try await session.waitFor("the whole header") { lines in
            lines.contains("fleet at mqtt://127.0.0.1:\(port) · 0 devices · not connected, retrying")
        }
        try await session.resize(width: 30)
        try await session.waitFor("the view fitted to 30 columns and nothing else") { lines in
            Array(lines.suffix(2)) == ["not connected", "waiting for devices on owntr…"]
                && lines.dropLast(2).allSatisfy { ["one", "two", "three"].contains($0) }
        }
        try await session.send("C-c")
        #expect(try await session.waitForExit(timeout: 10) == 0)
        // The last view stays, the shell's next line below it.
        #expect(Array(try await session.lines().suffix(2)) == ["not connected", "waiting for devices on owntr…"])
    }
}
