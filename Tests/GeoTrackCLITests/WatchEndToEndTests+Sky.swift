import Foundation
import GeoTrackTesting
import Testing
@testable import GeoTrackCLI

extension WatchEndToEndTests {
    @Test("sky through a real gpsd: satellite table and sky plot, refitted after a resize to 80×24; Ctrl-C gives the terminal back")
    func skyView() async throws {
        let log = SkyCommandTests.log
        let gpsd = try await GPSFake(log: log, once: false)
        let home = try Self.grantedHome()
        let stty = home.appendingPathComponent("stty-after").path
        let session = try TmuxSession(width: 120, height: 40, command: [TestSupport.binary, "sky", "--gpsd", gpsd.address],
                                      environment: Self.environment(home), afterwards: "stty -a > " + TmuxSession.quote(stty))
        let known = try SkyCommandTests.allSatellites(log)

        func isSkyView(_ lines: [String], width: Int, height: Int) throws -> Bool {
            let screen = try session.screen()
            let table = SkyCommandTests.tableSatellites(lines)
            return screen.count <= height
                && screen.allSatisfy { $0.unicodeScalars.count <= width - 1 }
                && lines.first?.hasPrefix("geotrack sky · gpsd at 127.0.0.1:\(gpsd.port)") == true
                && lines.contains { $0.hasPrefix("Status    3D fix") }
                && lines.contains { $0.hasPrefix("Receiver  /dev/") }
                // The plot: braille rings, its compass, and satellites marked used and unused.
                && lines.contains { $0.unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) } }
                && lines.contains { $0.contains(SkyPlot.usedMark) } && lines.contains { $0.contains(SkyPlot.unusedMark) }
                // The table: several satellites, every one of them one gpsd reported from this log.
                && table.count >= 6 && table.keys.allSatisfy { known.contains($0) }
        }
        let wide = try session.waitFor("the sky view at 120×40") { (try? isSkyView($0, width: 120, height: 40)) ?? false }
        #expect(!wide.contains { $0.contains("more (a taller window shows them)") }, "40 rows hold every satellite")

        try session.resize(width: 80, height: 24)
        let small = try session.waitFor("the sky view refitted to 80×24") { lines in
            (try? isSkyView(lines, width: 80, height: 24)) == true && (try? session.screen().count) == 24
                && lines.contains { $0.hasSuffix(SatelliteTable.header) && $0.count < 80 }
                // gpsd's SKY carries the dilutions once the receiver's GSA has come in.
                && lines.contains { $0.hasPrefix("DOP       H ") }
                // 24 rows cannot hold the log's 19 satellites, once gpsd reports them all (early SKYs
                // from gpsfake list fewer, and CI once caught the view before the full one came).
                && lines.last?.contains("more (a taller window shows them)") == true
        }
        #expect(small.last?.contains("more (a taller window shows them)") == true, "24 rows cannot hold 19 satellites")

        // Ctrl-Z: the normal screen and the terminal's settings back while stopped; SIGCONT: the view again.
        let pid = try session.commandPID()
        try session.send("C-z")
        try Self.waitForState(pid, stopped: true)
        #expect(try !session.lines().contains { $0.hasSuffix(SatelliteTable.header) }, "the sky view is put away while stopped")
        kill(pid, SIGCONT)
        try Self.waitForState(pid, stopped: false)
        try session.waitFor("the sky view back after SIGCONT") { (try? isSkyView($0, width: 80, height: 24)) ?? false }

        try session.send("C-c")
        #expect(try session.waitForExit(timeout: 30) == 0)
        // The alternate screen is gone and the terminal's settings are back.
        let after = try session.lines()
        #expect(!after.contains { $0.hasSuffix(SatelliteTable.header) }, "\(after)")
        let settings = try String(contentsOfFile: stty, encoding: .utf8)
        #expect(settings.contains(" echo ") && !settings.contains("-echo "), "\(settings)")
    }
}
