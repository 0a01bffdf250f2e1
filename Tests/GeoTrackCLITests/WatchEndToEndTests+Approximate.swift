import Foundation
import GeoTrackTesting
import LocationKit
import Testing

/// Approximate access (`geotrack auth grant --approximate`): every output of `watch` shows
/// positions on the grid only, whatever gpsd sends.
extension WatchEndToEndTests {
    /// A home granted approximate access.
    static func approximateHome() async throws -> URL {
        let home = try TestSupport.temporaryDirectory()
        let grant = try await TestSupport.geotrack(["auth", "grant", "--approximate"], home: home)
        #expect(grant.status == 0, "\(grant.stderr)")
        #expect(grant.stdout.contains("authorizedAlways (approximate)"), "\(grant.stdout)")
        return home
    }

    /// Every number that follows `prefix` in `text` (`"lat":`, `lat="`).
    static func numbers(after prefix: String, in text: String) -> [Double] {
        text.components(separatedBy: prefix).dropFirst().compactMap { rest in
            Double(rest.prefix { $0.isNumber || $0 == "." || $0 == "-" })
        }
    }

    /// The latitude and longitude of a status line (`3D  51.50012°N 0.12346°W  …`).
    static func degrees(in line: String) -> [Double] {
        line.split(separator: " ").filter { $0.contains("°N") || $0.contains("°S") || $0.contains("°E") || $0.contains("°W") }
            .compactMap { Double($0.prefix { $0.isNumber || $0 == "." }) }
    }

    @Test("under approximate access, --json and the GPX track hold grid positions only, with no altitude, speed or course")
    func approximateJSONAndGPX() async throws {
        let gpsd = try await GPSFake(log: Self.log, once: false)
        let home = try await Self.approximateHome()
        let status = try await TestSupport.geotrack(["auth", "status"], home: home)
        #expect(status.stdout == "authorizedAlways (approximate)\n")
        let gpx = home.appendingPathComponent("approximate.gpx").path
        let run = try await TestSupport.geotrack(["watch", "--gpsd", gpsd.address, "--json", "--gpx", gpx, "--count", "5",
                                            "--timeout", "30"], home: home)
        #expect(run.status == 0, "\(run.stderr)")
        let latitudes = Self.numbers(after: "\"lat\":", in: run.stdout)
        let longitudes = Self.numbers(after: "\"lon\":", in: run.stdout)
        #expect(latitudes.count >= 5 && longitudes.count == latitudes.count)
        #expect((latitudes + longitudes).allSatisfy(ApproximateLocation.isOnGrid), "\(latitudes) \(longitudes)")
        for key in ["\"alt", "\"speed\"", "\"track\"", "\"climb\"", "\"epx\"", "\"epy\"", "\"epv\""] {
            #expect(!run.stdout.contains(key), "\(key) in \(run.stdout)")
        }
        #expect(Self.numbers(after: "\"eph\":", in: run.stdout).allSatisfy { $0 >= 1_000 })
        let track = try String(contentsOfFile: gpx, encoding: .utf8)
        let points = Self.numbers(after: "lat=\"", in: track) + Self.numbers(after: "lon=\"", in: track)
        // One point per distinct time (gpsd repeats a cycle's time in several TPVs).
        #expect(points.count >= 4 && points.count <= 10)
        #expect(points.allSatisfy(ApproximateLocation.isOnGrid), "\(track)")
        #expect(!track.contains("<ele>") && !track.contains("<speed>") && !track.contains("<course>"), "\(track)")
        // The same gpsd, read by gpspipe, has precise positions: the grid is geotrack's doing.
        let gpspipe = GPSDInstallation.current.command("gpspipe", ["-w", "-n", "12", gpsd.address])
        let precise = try await TestSupport.run(gpspipe.executable, gpspipe.arguments)
        let raw = Self.numbers(after: "\"lat\":", in: precise.stdout)
        #expect(!raw.isEmpty && !raw.allSatisfy(ApproximateLocation.isOnGrid))
    }

    @Test("under approximate access the status line shows grid positions and ±km; --precise asks at the terminal and a yes shows precise ones")
    func approximateStatusLineAndPrecise() async throws {
        let gpsd = try await GPSFake(log: Self.log, once: false)
        let home = try await Self.approximateHome()
        let coarse = try await Self.watch(gpsd, home: home, width: 120)
        let line = try await #require(try coarse.waitFor("a fix on the status line") { $0.contains(where: Self.isFixLine) }
            .first(where: Self.isFixLine))
        let degrees = Self.degrees(in: line)
        #expect(degrees.count == 2 && degrees.allSatisfy(ApproximateLocation.isOnGrid), "\(line)")
        #expect(!line.contains("alt ") && !line.contains("km/h"), "\(line)")
        try await coarse.send("C-c")
        #expect(try await coarse.waitForExit(timeout: 5) == 0)

        let asked = try await Self.watch(gpsd, home: home, width: 120, ["--precise"])
        try await asked.waitFor("the full-accuracy question") { $0.last?.contains("Allow your precise location for this run") == true }
        try await asked.send("y", "Enter")
        let precise = try await #require(try asked.waitFor("a precise fix") { lines in
            lines.contains { Self.isFixLine($0) && $0.contains("alt ") }
        }.first { Self.isFixLine($0) && $0.contains("alt ") })
        let exact = Self.degrees(in: precise)
        #expect(exact.count == 2 && !exact.allSatisfy(ApproximateLocation.isOnGrid), "\(precise)")
        try await asked.send("C-c")
        #expect(try await asked.waitForExit(timeout: 5) == 0)
        // Never stored; and without a terminal to ask on, --precise stays approximate and says so.
        #expect(try await TestSupport.geotrack(["auth", "status"], home: home).stdout == "authorizedAlways (approximate)\n")
        // (Test children run in a session of their own, with no controlling terminal.)
        let headless = try await TestSupport.geotrack(["watch", "--gpsd", gpsd.address, "--precise", "--json", "--count", "2",
                                                 "--timeout", "30"], home: home)
        #expect(headless.status == 0, "\(headless.stderr)")
        #expect(headless.stderr.contains("no terminal to ask for precise ones"), "\(headless.stderr)")
        let latitudes = Self.numbers(after: "\"lat\":", in: headless.stdout)
        #expect(!latitudes.isEmpty && latitudes.allSatisfy(ApproximateLocation.isOnGrid), "\(headless.stdout)")
    }
}
