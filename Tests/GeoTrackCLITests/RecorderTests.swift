import Foundation
import GeoTrackTesting
import Testing

/// What `replay --publish` sends, as the real OwnTracks Recorder stores and serves it: several
/// devices, locations and region transitions, through one mosquitto the Recorder subscribes to,
/// and over HTTP to the Recorder's own /pub (OwnTracks' HTTP mode).
///
/// The Recorder is not packaged in Debian: `make test-recorder` (CI) builds it from its source
/// tarball and runs this suite with it; `make test` leaves the suite out. Run without the
/// Recorder, the suite fails saying how to get it.
@Suite("the OwnTracks Recorder stores what replay --publish sends", .serialized)
struct RecorderTests {
    /// A corpus log per device; together about 130 locations, which the Recorder (about 20
    /// messages a second while its HTTP API is on) stores within seconds.
    static let devices = [
        ("quectel", "quectel-l76k-nmea.nmea"),
        ("haicom", "haicom-305N.nmea"),
        ("mt3339", "mt3339.nmea"),
        ("garmin", "garmin15x.nmea"),
    ]

    /// The walk's region (OnePipelineTests): the walk enters it at 12:00:50 and leaves at 12:01:09.
    static let regionConfiguration = """
        regions:
          market:
            latitude: 51.5
            longitude: -0.119856
            radius: 30
        """

    /// A transition as replay --json dates and places it: the region event and the fix before it.
    struct Crossing: CustomStringConvertible {
        var event: String
        var region: String
        var fix: PublishTests.Fix
        var description: String { "\(event) \(region) at \(fix)" }
    }

    /// The region events replay --json prints, each with the TPV of the fix that caused it.
    static func crossings(_ log: String, home: URL, config: String) async throws -> [Crossing] {
        let run = try await TestSupport.geotrack(["replay", log, "--json", "--config", config], home: home)
        #expect(run.status == 0, "\(run.stderr)")
        var last: PublishTests.Fix?
        var found: [Crossing] = []
        for line in run.stdout.split(separator: "\n") {
            let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            if object["class"] as? String == "TPV", let lat = object["lat"] as? Double, let lon = object["lon"] as? Double,
               let time = object["time"] as? String {
                last = PublishTests.Fix(lat: lat, lon: lon, tst: try #require(PublishTests.seconds(time)))
            } else if object["class"] as? String == "EVENT", let event = object["event"] as? String,
                      event == "regionEntered" || event == "regionExited" {
                found.append(Crossing(event: event == "regionEntered" ? "enter" : "leave",
                                      region: try #require(object["region"] as? String), fix: try #require(last)))
            }
        }
        return found
    }

    /// A transition the Recorder stored: under the topic's `event` part over MQTT; over HTTP it
    /// has no topic to go by and files every message under `*`, so only `_type` tells.
    static func isTransition(_ record: OwnTracksRecorder.Record, transport: String) -> Bool {
        record.object["_type"] as? String == "transition" && record.tag == (transport == "mqtt" ? "event" : "*")
    }

    static func fix(_ object: [String: Any]) throws -> PublishTests.Fix {
        PublishTests.Fix(lat: try #require(object["lat"] as? Double), lon: try #require(object["lon"] as? Double),
                         tst: try #require(object["tst"] as? Int))
    }

    @Test("four corpus logs and a walk through a region: every location stored is the replay's fix at its tst, no tst twice, transitions with wtst and the crossing fix",
          arguments: ["mqtt", "http"])
    func storesEveryLocationAndTransition(_ transport: String) async throws {
        let home = try TestSupport.temporaryDirectory()
        let broker = try await Mosquitto()
        let recorder = try await OwnTracksRecorder(broker: broker)
        let url = transport == "mqtt" ? "mqtt://127.0.0.1:\(broker.port)" : "http://127.0.0.1:\(recorder.httpPort)/pub"

        var expected: [String: [PublishTests.Fix]] = [:]
        for (device, name) in Self.devices {
            let log = try Corpus.path(name)
            expected[device] = try await PublishTests.expectedFixes(log, home: home)
            let run = try await TestSupport.geotrack(["replay", log, "--publish", url, "--publish-user", "fleet",
                                                "--publish-device", device], home: home)
            #expect(run.status == 0, "\(device): \(run.stderr)")
            #expect(run.stderr.isEmpty, "\(device): \(run.stderr)")
        }

        // The walk, with its region: locations and two transitions.
        let walk = TestSupport.packageRoot.appendingPathComponent("Tests/GeoTrackCLITests/Logs/walk.nmea").path
        let config = home.appendingPathComponent("regions.yaml").path
        try Self.regionConfiguration.write(toFile: config, atomically: true, encoding: .utf8)
        let crossings = try await Self.crossings(walk, home: home, config: config)
        #expect(crossings.map(\.event) == ["enter", "leave"], "\(crossings)")
        expected["walker"] = try await PublishTests.expectedFixes(walk, home: home)
        let began = Int(Date().timeIntervalSince1970.rounded(.down))
        let run = try await TestSupport.geotrack(["replay", walk, "--config", config, "--publish", url, "--publish-user", "fleet",
                                            "--publish-device", "walker"], home: home)
        let ended = Int(Date().timeIntervalSince1970.rounded(.up))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        #expect(expected.values.allSatisfy { !$0.isEmpty })

        // Every run ended with its messages acknowledged by the broker; the Recorder stores them
        // at its own pace.
        let devices = Self.devices.map(\.0) + ["walker"]
        let stored = await waitUntil(timeout: .seconds(120)) {
            devices.allSatisfy { device in
                let records = recorder.records(user: "fleet", device: device)
                let locations = records.filter { $0.object["_type"] as? String == "location" }.count
                let transitions = records.filter { Self.isTransition($0, transport: transport) }.count
                return locations >= expected[device, default: []].count && transitions >= (device == "walker" ? crossings.count : 0)
            }
        }
        #expect(stored, "the Recorder's log: \(recorder.logPath)")

        for device in devices {
            // What the Recorder serves back, in the order it stored them.
            let served = try recorder.locations(user: "fleet", device: device).map(Self.fix)
            let want = expected[device, default: []]
            #expect(served == want, "\(device): served \(served.count), replayed \(want.count)")
            #expect(Set(served.map(\.tst)).count == served.count, "\(device): a tst stored twice")
            let byTime = Dictionary(want.map { ($0.tst, $0) }, uniquingKeysWith: { first, _ in first })
            for fix in served {
                #expect(byTime[fix.tst] == fix, "\(device): \(fix) is not the replay's fix at \(fix.tst)")
            }
        }

        let transitions = recorder.records(user: "fleet", device: "walker").filter { Self.isTransition($0, transport: transport) }
            .map(\.object)
        #expect(transitions.count == crossings.count)
        for (transition, crossing) in zip(transitions, crossings) {
            #expect(transition["_type"] as? String == "transition")
            #expect(transition["event"] as? String == crossing.event)
            #expect(transition["desc"] as? String == crossing.region)
            #expect(try Self.fix(transition) == crossing.fix, "\(transition) is not \(crossing)")
            let wtst = try #require(transition["wtst"] as? Int)
            #expect((began...ended).contains(wtst), "wtst \(wtst) is not when the run began (\(began)...\(ended))")
        }
        await recorder.stop()
    }
}
