import ArgumentParser
import Foundation
import GeoTrackTesting
import GeoTrackService
import Logging
import NMEA
import TPVJSONBulk
import Testing
@testable import GeoTrackCLI

/// `watch` and `replay` are one pipeline: a location manager, the service, and outputs that
/// only draw. These tests hold replay to it; WatchEndToEndTests hold watch to the same results.
@Suite("One pipeline from the source to every output")
struct OnePipelineTests {
    /// A synthetic ride through a region with a stay in it (scripts/make-walk-log.py).
    static let walk = TestSupport.packageRoot.appendingPathComponent("Tests/GeoTrackCLITests/Logs/walk.nmea").path

    /// A home whose configuration monitors the walk's region and reports its visit.
    static func eventHome() throws -> URL {
        let home = try TestSupport.temporaryDirectory()
        let directory = home.appendingPathComponent("config/geotrack")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try eventConfiguration.write(to: directory.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
        return home
    }

    /// The walk's region, and visits with a dwell short enough for its 16 s stay.
    static let eventConfiguration = """
        location:
          visits: true
          visit_radius: 15
          visit_dwell: 8
        regions:
          market:
            latitude: 51.5
            longitude: -0.119856
            radius: 30
        """

    /// What the walk causes, as `replay` reports it: the events are dated with their fixes' times.
    static let walkEventLines = [
        "12:00:50Z entered region market",
        "12:00:50Z arrived at 51.50000°N 0.12000°W",
        // The fix of 12:01:06 is 16 m on at 16 m/s: already travelling, so the stay ended at 12:01:05.
        "12:01:05Z left 51.50000°N 0.12000°W",
        "12:01:09Z left region market",
    ]

    static func eventObjects(_ output: String) -> [String] {
        output.split(separator: "\n").map(String.init).filter { $0.hasPrefix("{\"class\":\"EVENT\"") }
    }

    @Test("plain replay --json takes the fast path, and it prints byte for byte what the service path prints, on every corpus log")
    @MainActor
    func fastPathMatchesTheServicePath() async throws {
        let names = try Corpus.names().map { $0 + ".nmea" }
        #expect(names.count >= 30)
        let options = try OutputOptions.parse(["--json"])
        #expect(FastReplay.applies(options: options, settings: Settings(), paced: false))
        var withRegion = Settings()
        withRegion.regions = [RegionSetting(name: "r", latitude: 0, longitude: 0, radius: 10)]
        #expect(!FastReplay.applies(options: options, settings: withRegion, paced: false))
        var withVisits = Settings()
        withVisits.visits.enabled = true
        #expect(!FastReplay.applies(options: options, settings: withVisits, paced: false))
        #expect(!FastReplay.applies(options: try OutputOptions.parse(["--json", "--sky"]), settings: Settings(), paced: false))
        // Every other output says itself that it is asked for, and the fast path, which has none
        // of them, is not taken.
        for flags in [["--stats"], ["--gpx", "t.gpx"], ["--svg", "t.svg"], ["--publish", "mqtt://127.0.0.1"],
                      ["--publish-home-assistant"], ["--count", "3"]] {
            #expect(!FastReplay.applies(options: try OutputOptions.parse(["--json"] + flags), settings: Settings(), paced: false),
                    "\(flags)")
        }
        #expect(!FastReplay.applies(options: options, settings: Settings(), paced: true))
        // The configuration's destinations publish as --publish does: `replay FILE --json` took
        // the fast path and queued nothing for them.
        var withDestinations = Settings()
        withDestinations.publish.destinations = ["mqtt://127.0.0.1"]
        #expect(!FastReplay.applies(options: options, settings: withDestinations, paced: false))

        let directory = try TestSupport.temporaryDirectory()
        // Every log is smaller than two chunks and takes the single decoder; all of them one
        // after another, three times (1.7 MB), are decoded in chunks on worker threads (ParallelTPVJSON).
        var all = Data()
        for _ in 0..<3 {
            for name in names { all.append(try Data(contentsOf: try Corpus.url(name))) }
        }
        let joined = directory.appendingPathComponent("all.nmea")
        try all.write(to: joined)
        #expect(all.count >= 4 * ParallelTPVJSON.defaultChunkSize)
        let paths = try names.map { ($0, try Corpus.path($0)) } + [("all.nmea", joined.path)]
        for (name, path) in paths {
            let fastFile = directory.appendingPathComponent(name + ".fast").path
            let serviceFile = directory.appendingPathComponent(name + ".service").path
            let fast = open(fastFile, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            try FastReplay.replayJSON(path: path, descriptor: fast, stop: StopFlag())
            close(fast)

            let descriptor = open(serviceFile, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            let output = try TrackerOutputs.make(options: options, settings: Settings(), live: false, sourceName: path,
                                                 descriptor: descriptor)
            let run = TrackingRun(manager: LocationSources.replayManager(LocationSources.replay(path: path, speed: nil),
                                                                         settings: Settings(), logger: Logger(label: "test")),
                                  output: output)
            let outcome = try await TrackerLoop.run(run.verdicts, output: output, timeout: nil, clock: ContinuousClock())
            run.stop()
            try output.finish()
            close(descriptor)
            #expect(outcome == .sourceFinished, "\(name)")
            let fastBytes = try Data(contentsOf: URL(fileURLWithPath: fastFile))
            let serviceBytes = try Data(contentsOf: URL(fileURLWithPath: serviceFile))
            #expect(!fastBytes.isEmpty, "\(name) printed nothing")
            #expect(fastBytes == serviceBytes, "\(name): the fast path and the service path differ")
        }
    }

    @Test("replay reports the configured region and visit, dated with their fixes, in JSON and on status lines")
    func replayEvents() async throws {
        let home = try Self.eventHome()
        let json = try await TestSupport.geotrack(["replay", Self.walk, "--json"], home: home)
        #expect(json.status == 0, "\(json.stderr)")
        let events = Self.eventObjects(json.stdout)
        #expect(events.count == 4)
        #expect(events.first == #"{"class":"EVENT","event":"regionEntered","time":"2024-06-18T12:00:50.000Z","region":"market"}"#)
        #expect(events.last == #"{"class":"EVENT","event":"regionExited","time":"2024-06-18T12:01:09.000Z","region":"market"}"#)
        #expect(events[1].contains(#""event":"visitStarted","time":"2024-06-18T12:00:50.000Z""#))
        #expect(events[2].contains(#""event":"visitEnded","time":"2024-06-18T12:01:05.000Z""#))
        // Each event follows the TPV of the fix that caused it.
        let lines = json.stdout.split(separator: "\n").map(String.init)
        let entered = try #require(lines.firstIndex(of: events[0]))
        #expect(lines[entered - 1].contains(#""time":"2024-06-18T12:00:50.000Z""#))

        let plain = try await TestSupport.geotrack(["replay", Self.walk], home: home)
        #expect(plain.status == 0, "\(plain.stderr)")
        let eventLines = plain.stdout.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("3D") && !$0.hasPrefix("searching") }
        #expect(eventLines == ["replaying \(Self.walk)"] + Self.walkEventLines + ["end of \(Self.walk)"])

        // Paced, the same events at the same fix times.
        let paced = try await TestSupport.geotrack(["replay", Self.walk, "--json", "--speed", "200"], home: home)
        #expect(Self.eventObjects(paced.stdout) == events)
    }

    @Test("visits are reported only when asked for, like CoreLocation's startMonitoringVisits")
    func visitsAreOptIn() async throws {
        let home = try TestSupport.temporaryDirectory()
        let quiet = try await TestSupport.geotrack(["replay", Self.walk, "--json"], home: home)
        #expect(Self.eventObjects(quiet.stdout).isEmpty)
        let asked = try await TestSupport.geotrack(["replay", Self.walk, "--json", "--visits"], home: home)
        // The default dwell is five minutes; the walk stays 16 s: still nothing, but through the service path.
        #expect(asked.status == 0)
        #expect(Self.eventObjects(asked.stdout).isEmpty)
        #expect(asked.stdout == quiet.stdout)
    }

    @Test("--sky adds gpsd's SKY objects to the TPVs; without --json it is a usage error")
    func sky() async throws {
        let home = try TestSupport.temporaryDirectory()
        let log = try Corpus.path("garmin15x.nmea")
        let run = try await TestSupport.geotrack(["replay", log, "--json", "--sky"], home: home)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let skies = lines.filter { $0.hasPrefix("{\"class\":\"SKY\"") }
        #expect(!skies.isEmpty)
        let last = try #require(skies.last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        let satellites = try #require(object["satellites"] as? [[String: Any]])
        #expect(satellites.count == 11)
        #expect(satellites.filter { $0["used"] as? Bool == true }.count == 8)
        #expect(object["hdop"] != nil)
        // The TPVs are the same as without --sky.
        let plain = try await TestSupport.geotrack(["replay", log, "--json"], home: home)
        #expect(lines.filter { $0.hasPrefix("{\"class\":\"TPV\"") } == plain.stdout.split(separator: "\n").map(String.init))
        let usage = try await TestSupport.geotrack(["replay", log, "--sky"], home: home)
        #expect(usage.status == 64)
    }
}
