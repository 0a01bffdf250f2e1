import Foundation
import GeoTrackTesting
import Testing

/// The status line as a newcomer meets it, in a real terminal (tmux): why gpsd cannot be reached
/// at 80 columns and narrower.
@Suite("status line in a terminal", .serialized)
struct StatusTerminalTests {
    /// A home where location access is granted (`geotrack auth grant` with its own XDG_STATE_HOME).
    static func grantedHome() throws -> URL {
        let home = try TestSupport.temporaryDirectory()
        let grant = try TestSupport.geotrack(["auth", "grant"], home: home)
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
    func gpsdDown(width: Int, expected: String) throws {
        let home = try Self.grantedHome()
        let port = try GeoTrackTesting.GPSFake.freePort()
        let session = try TmuxSession(width: width, height: 24, command: [TestSupport.binary, "--gpsd", "127.0.0.1:\(port)"],
                                      environment: Self.environment(home))
        let line = expected.replacingOccurrences(of: "PORT", with: "\(port)")
        // The countdown comes and goes with the width it needs; the reason is there throughout.
        let screen = try session.waitFor("the cause on the status line") { $0 == [line] }
        #expect(screen.allSatisfy { $0.count <= width - 1 })
        try session.send("C-c")
        #expect(try session.waitForExit(timeout: 10) == 0)
    }

    @Test("an unknown gpsd host at 80 columns: the screen says the name does not resolve")
    func unknownHost() throws {
        let home = try Self.grantedHome()
        let session = try TmuxSession(width: 80, height: 24, command: [TestSupport.binary, "--gpsd", "nohost.invalid:2947"],
                                      environment: Self.environment(home))
        try session.waitFor("the unknown host on the status line") {
            $0 == ["gpsd unreachable: host nohost.invalid does not resolve (check the host name)"]
        }
        try session.send("C-c")
        #expect(try session.waitForExit(timeout: 10) == 0)
    }
}
