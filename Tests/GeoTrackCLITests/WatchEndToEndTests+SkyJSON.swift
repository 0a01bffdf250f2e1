import Foundation
import GeoTrackTesting
import Testing

extension WatchEndToEndTests {
    // geotrack writes gpsd 3.22's SKY, whichever gpsd it reads; 3.25 and 3.27 print their own
    // (an empty `satellites` list, other counts), which geotrack does not copy. So gpspipe is the
    // oracle only for the system's gpsd, Debian 12's 3.22; make test-gpsd-versions runs this
    // suite against the newer two, where the test is shown as not run, with this reason.
    @Test("watch --json --sky prints gpsd's SKY lines as gpspipe -w shows them: every key (nSat and uSat included), value and order",
          .enabled(if: GPSDInstallation.current == .system, "geotrack writes gpsd 3.22's SKY; a newer gpsd's gpspipe prints its own"),
          arguments: [("ublox-neo-m9n-nmea", 0.02), ("garmin15x", 0.1), ("garmin48", 0.05)])
    func skyJSONIsGpsdsSKY(log name: String, delay: Double) async throws {
        let (gpspipe, watch) = try await Self.watchBesideGPSPipe(log: name, delay: delay, ["--json", "--sky"])

        // Compared as text: the same keys in gpsd's order, with gpsd's number formats.
        let skyLines = { (output: String) in output.split(whereSeparator: \.isNewline).map(String.init).filter { $0.hasPrefix("{\"class\":\"SKY\",") } }
        let theirs = Set(skyLines(gpspipe))
        let ours = skyLines(watch)
        #expect(ours.count >= 3, "\(name): \(ours.count) SKY lines")
        #expect(theirs.allSatisfy { $0.contains(",\"nSat\":") && $0.contains(",\"uSat\":") }, "gpsd 3.22 always prints nSat and uSat")
        for line in ours where !theirs.contains(line) {
            Issue.record("\(name): gpsd printed no such SKY: \(line)")
        }
    }
}
