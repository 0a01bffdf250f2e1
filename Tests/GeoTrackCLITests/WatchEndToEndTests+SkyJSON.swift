import Foundation
import GeoTrackTesting
import Testing

extension WatchEndToEndTests {
    @Test("watch --json --sky prints gpsd's SKY lines as gpspipe -w shows them: every key (nSat and uSat included), value and order",
          arguments: [("ublox-neo-m9n-nmea", 0.02), ("garmin15x", 0.1), ("garmin48", 0.05)])
    func skyJSONIsGpsdsSKY(log name: String, delay: Double) async throws {
        let log = try Corpus.path(name + ".nmea")
        let home = try Self.grantedHome()
        let replay = try TestSupport.geotrack(["replay", log, "--json"], home: home)
        let lastTime = try #require(try Self.objects(replay.stdout, class: "TPV").compactMap { $0["time"] as? String }.last?.split(separator: "T").last)
        let gpsd = try await GPSFake(log: log, cycle: delay)
        let gpspipe = GPSDInstallation.current.command("gpspipe", ["-w", gpsd.address])
        let pipe = try ChildProcess(gpspipe.executable, gpspipe.arguments)
        let watch = try ChildProcess(TestSupport.binary, ["watch", "--gpsd", gpsd.address, "--json", "--sky"], environment: Self.environment(home))
        try Self.waitForOutput(pipe, "gpspipe's last fix") { $0.contains(lastTime) }
        try Self.waitForOutput(watch, "watch's last fix") { $0.contains(lastTime) }
        watch.signal(SIGTERM)
        pipe.signal(SIGTERM)
        #expect(watch.wait(timeout: 3) == 0, "\(watch.stderr)")
        _ = pipe.wait(timeout: 3)

        // Compared as text: the same keys in gpsd's order, with gpsd's number formats.
        let skyLines = { (output: String) in output.split(whereSeparator: \.isNewline).map(String.init).filter { $0.hasPrefix("{\"class\":\"SKY\",") } }
        let theirs = Set(skyLines(pipe.stdout))
        let ours = skyLines(watch.stdout)
        #expect(ours.count >= 3, "\(name): \(ours.count) SKY lines")
        #expect(theirs.allSatisfy { $0.contains(",\"nSat\":") && $0.contains(",\"uSat\":") }, "gpsd 3.22 always prints nSat and uSat")
        for line in ours where !theirs.contains(line) {
            Issue.record("\(name): gpsd printed no such SKY: \(line)")
        }
    }
}
