import Foundation
import GeoTrackTesting
import OwnTracks
import Testing
@testable import GeoTrackCLI

/// `--publish-home-assistant` against a real mosquitto: the discovery config Home Assistant
/// reads. Home Assistant itself cannot run here: the test checks the config's topic and every
/// field Home Assistant's MQTT device_tracker reads, and that the attributes topic it names is
/// where the locations go.
@Suite("Home Assistant discovery")
struct HomeAssistantTests {
    /// A replay published for ann's `device` with `--publish-home-assistant` to a real mosquitto,
    /// then what a subscriber finds retained there: the discovery config (as sent, and parsed)
    /// and every message. Subscribed after the run, so only a retained message can arrive
    /// (mosquitto_sub -v separates topic and payload by a space: the device names have none).
    static func published(device: String) async throws
        -> (config: (topic: String, payload: String), object: [String: Any], messages: [(topic: String, payload: String)]) {
        let home = try TestSupport.temporaryDirectory()
        let broker = try await Mosquitto()
        let run = try await TestSupport.geotrack(["replay", try PublishTests.log, "--publish", "mqtt://127.0.0.1:\(broker.port)",
                                                  "--publish-user", "ann", "--publish-device", device, "--publish-home-assistant"],
                                                 home: home)
        #expect(run.status == 0, "\(run.stderr)")
        let subscriber = try await MosquittoSubscriber(broker: broker, topics: ["homeassistant/#", "owntracks/#"])
        #expect(await subscriber.waitForMessages(2))
        let messages = subscriber.messages()
        let config = try #require(messages.first { $0.topic.hasPrefix("homeassistant/") })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(config.payload.utf8)) as? [String: Any])
        return (config, object, messages)
    }

    @Test("a retained device_tracker config under homeassistant/, naming the OwnTracks topic the locations arrive on")
    func discoveryConfig() async throws {
        let (config, object, messages) = try await Self.published(device: "boat.1")
        #expect(config.topic == "homeassistant/device_tracker/geotrack_ann_boat_1_19a364aa/config")
        #expect(object["unique_id"] as? String == "geotrack_ann_boat_1_19a364aa")
        // The entity id it starts with: `default_entity_id`, a whole entity id. Home Assistant
        // 2025.10 deprecated `object_id` (warning about every config that has it) and 2026.4
        // stopped reading it.
        #expect(object["default_entity_id"] as? String == "device_tracker.geotrack_ann_boat_1_19a364aa", "\(config.payload)")
        #expect(object["object_id"] == nil, "\(config.payload)")
        // The tracker is the device's main feature: Home Assistant (2024.2 on) names an entity
        // "DEVICE ENTITY", so an entity named as its device would read "boat.1 boat.1"; its
        // documented way to name it after the device alone is a null name.
        #expect(object.keys.contains("name") && object["name"] is NSNull, "\(config.payload)")
        #expect(object["source_type"] as? String == "gps")
        #expect(object["json_attributes_topic"] as? String == "owntracks/ann/boat.1")
        let template = try #require(object["json_attributes_template"] as? String)
        for field in ["\"latitude\": value_json.lat", "\"longitude\": value_json.lon", "\"gps_accuracy\": value_json.acc"] {
            #expect(template.contains(field), "\(template)")
        }
        let device = try #require(object["device"] as? [String: Any])
        #expect(device["identifiers"] as? [String] == ["geotrack_ann_boat_1_19a364aa"])
        #expect(device["name"] as? String == "boat.1")
        // The attributes topic holds a location with the fields the template reads.
        let location = try #require(messages.last { $0.topic == "owntracks/ann/boat.1" }, "\(messages.map(\.topic))")
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(location.payload.utf8)) as? [String: Any])
        #expect(fields["lat"] is Double && fields["lon"] is Double)
    }

    @Test("a broker restarted without persistence forgets the retained config: geotrack announces the device again when it reconnects")
    func announcedAgainAfterABrokerRestart() async throws {
        let home = try TestSupport.temporaryDirectory()
        try await TestSupport.grantAccess(home: home)
        let log = home.appendingPathComponent("long.nmea").path
        try SyntheticLog.writeNMEA(cycles: 3_600, to: log)
        let broker = try await Mosquitto()
        let environment = ["XDG_STATE_HOME": home.appendingPathComponent("state").path,
                           "XDG_CONFIG_HOME": home.appendingPathComponent("config").path, "HOME": home.path]
        // An hour of fixes played 20 times faster: long enough for a restart in the middle.
        let replay = try ChildProcess(TestSupport.binary, ["replay", log, "--speed", "20", "--quiet",
                                                           "--publish", "mqtt://127.0.0.1:\(broker.port)", "--publish-user", "ann",
                                                           "--publish-device", "boat", "--publish-home-assistant"],
                                      environment: environment)
        defer { replay.signalGroup(SIGKILL) }
        let configTopic = "homeassistant/device_tracker/geotrack_ann_boat/config"
        let before = try await MosquittoSubscriber(broker: broker, topics: ["homeassistant/#"])
        #expect(await waitUntil(timeout: .seconds(30)) { before.messages().contains { $0.topic.hasPrefix(configTopic) } })
        await before.stop()
        try await broker.stop()
        try await broker.restart()
        // Nothing retained survived the restart; the config is back once geotrack reconnected.
        let after = try await MosquittoSubscriber(broker: broker, topics: ["homeassistant/#", "owntracks/#"])
        #expect(await waitUntil(timeout: .seconds(30)) { after.messages().contains { $0.topic.hasPrefix(configTopic) } },
                "\(after.messages().map(\.topic))")
        replay.signal(SIGTERM)
        #expect(await replay.status(within: 30) == 0, "\(replay.stderr)")
    }

    static let oracle = TestSupport.packageRoot.appendingPathComponent("Tests/GeoTrackCLITests/Oracles/ha_attributes.py").path

    /// What Home Assistant's device tracker makes of `payload` on its attributes topic, by the
    /// oracle: Home Assistant's steps restated on Jinja2, the engine it renders templates with.
    static func homeAssistant(template: String, payload: String) async throws -> [String: Any] {
        let run = try await TestSupport.run("/usr/bin/env", ["python3", oracle, template, payload])
        #expect(run.status == 0, "the oracle failed (is jinja2 installed? make deps installs it): \(run.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)")
    }

    @Test("the attributes topic's locations move the tracker; the last will on the same topic neither fails the template nor moves it")
    func lastWillOnAttributesTopic() async throws {
        let (_, object, messages) = try await Self.published(device: "van")
        let template = try #require(object["json_attributes_template"] as? String)
        let location = try #require(messages.last { $0.topic == object["json_attributes_topic"] as? String })
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(location.payload.utf8)) as? [String: Any])

        let moved = try await Self.homeAssistant(template: template, payload: location.payload)
        #expect(moved["outcome"] as? String == "position", "\(moved)")
        #expect(moved["latitude"] as? Double == fields["lat"] as? Double && moved["longitude"] as? Double == fields["lon"] as? Double, "\(moved)")
        // The broker publishes the will on the same topic when the van's connection drops (as
        // OwnTracks' apps do): Home Assistant must neither log a template error for it each
        // time nor take it for a position.
        let will = String(decoding: OwnTracksJSON.lastWill(timestamp: 1_795_000_000), as: UTF8.self)
        let kept = try await Self.homeAssistant(template: template, payload: will)
        #expect(kept["outcome"] as? String == "attributes", "\(kept)")
    }

    @Test("two devices never share a discovery id, whatever their names; plain names keep a plain id")
    func distinctIDs() throws {
        let id = { (user: String, device: String) in
            HomeAssistantDiscovery.objectID(try #require(OwnTracksTopic(user: user, device: device)))
        }
        #expect(try id("ann", "boat-1") == "geotrack_ann_boat-1")
        // FNV-1a of "ann/boat.1", worked out apart from the code (Python).
        #expect(try id("ann", "boat.1") == "geotrack_ann_boat_1_19a364aa")
        // Names that the allowed letters alone would fold together: spaces, underscores, emoji,
        // and the split between user and device.
        let pairs = [("ha", "a b"), ("ha", "a_b"), ("ha", "Zoë📱"), ("ha", "Zoë😀"), ("a_b", "c"), ("a", "b_c"), ("ha", "a-b")]
        let ids = try pairs.map { try id($0.0, $0.1) }
        #expect(Set(ids).count == pairs.count, "\(ids)")
        for value in ids {
            #expect(value.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" }, "\(value)")
        }
    }

    @Test("the default entity id is one Home Assistant accepts, whatever the names: lower case, no double or edge underscores")
    func defaultEntityID() throws {
        // Home Assistant's entity id rule (homeassistant.core.valid_entity_id): DOMAIN.OBJECT, each
        // of digits, lower-case letters and `_`, neither starting nor ending with `_`, no `__`.
        let valid = { (id: String) -> Bool in
            let parts = id.split(separator: ".", omittingEmptySubsequences: false)
            return parts.count == 2 && !id.contains("__") && parts.allSatisfy { part in
                !part.isEmpty && !part.hasPrefix("_") && !part.hasSuffix("_")
                    && part.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
            }
        }
        for (user, device) in [("ann", "boat.1"), ("ann", "Boat-1"), ("ha", "Zoë📱"), ("_x_", "__"), ("ha", "a b")] {
            let topic = try #require(OwnTracksTopic(user: user, device: device))
            let object = try #require(try JSONSerialization.jsonObject(with: Data(HomeAssistantDiscovery.config(topic))) as? [String: Any])
            let id = try #require(object["default_entity_id"] as? String)
            #expect(id.hasPrefix("device_tracker.geotrack_") && valid(id), "\(user)/\(device): \(id)")
        }
    }

    @Test("without an MQTT destination there is nothing to announce on: a usage error")
    func needsBroker() async throws {
        for arguments in [["--publish-home-assistant"], ["--publish", "http://127.0.0.1:1/pub", "--publish-home-assistant"]] {
            let run = try await TestSupport.geotrack(["replay", try PublishTests.log] + arguments, home: try TestSupport.temporaryDirectory())
            #expect(run.status == 64, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("--publish-home-assistant announces the device on an MQTT broker"))
        }
    }
}
