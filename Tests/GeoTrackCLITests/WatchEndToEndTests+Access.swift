import Foundation
import GeoTrackTesting
import Testing

/// Who may see the location while `watch` runs.
extension WatchEndToEndTests {
    @Test("allowed once at the prompt, a later `geotrack auth deny` stops the recording at once and says so")
    func denyWinsOverOnce() async throws {
        let gpsd = try await GPSFake(log: Self.log, once: false)
        let home = try TestSupport.temporaryDirectory()
        let gpx = home.appendingPathComponent("once.gpx").path
        let session = try await Self.watch(gpsd, home: home, width: 100, ["--gpx", gpx])
        try await session.waitFor("the prompt") { $0.last?.contains(TerminalPromptTests.question) == true }
        try await session.send("o", "Enter")
        try await Self.waitForPoints(gpx, atLeast: 2)
        let deny = try await TestSupport.run(TestSupport.binary, ["auth", "deny"], environment: Self.environment(home))
        #expect(deny.status == 0, "\(deny.stderr)")
        try await session.waitFor("the denial on the status line") { $0.contains { $0.contains("location access denied") } }
        let recorded = try String(contentsOfFile: gpx, encoding: .utf8).components(separatedBy: "<trkpt ").count - 1
        // gpsd goes on sending fixes (gpsfake loops the log): let another client see three more.
        let gpspipe = GPSDInstallation.current.command("gpspipe", ["-w", gpsd.address])
        let pipe = try ChildProcess(gpspipe.executable, gpspipe.arguments)
        try await Self.waitForOutput(pipe, "three more fixes from gpsd") { output in
            output.split(whereSeparator: \.isNewline).filter { $0.contains("\"class\":\"TPV\"") && $0.contains("\"lat\"") }.count >= 3
        }
        pipe.signal(SIGTERM)
        let after = try String(contentsOfFile: gpx, encoding: .utf8).components(separatedBy: "<trkpt ").count - 1
        #expect(after == recorded, "points recorded after the denial: \(after - recorded)")
        try await session.send("C-c")
        #expect(try await session.waitForExit(timeout: 5) == 0)
        #expect(try String(contentsOfFile: gpx, encoding: .utf8).hasSuffix("</gpx>\n"))
    }
}
