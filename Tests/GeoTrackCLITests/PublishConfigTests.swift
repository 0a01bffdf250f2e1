import Foundation
import GeoTrackTesting
import Testing

/// The configuration's `publish:` section against a real mosquitto: where a plain `replay`
/// publishes, and that `--publish` on the command line stands instead of it.
@Suite("publishing from the configuration")
struct PublishConfigTests {
    @Test("publish.destinations, user, device and home_assistant make a plain replay publish; --publish replaces the destinations")
    func configuredDestinations() async throws {
        let home = try TestSupport.temporaryDirectory()
        let broker = try await Mosquitto()
        let other = try await Mosquitto()
        let config = home.appendingPathComponent("geotrack.yaml").path
        try """
            publish:
              destinations:
                - mqtt://127.0.0.1:\(broker.port)
              user: ann
              device: boat
              home_assistant: true
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let expected = try await PublishTests.expectedFixes(try PublishTests.log, home: home)

        let run = try await TestSupport.geotrack(["replay", try PublishTests.log, "--config", config], home: home)
        #expect(run.status == 0, "\(run.stderr)")
        let subscriber = try await MosquittoSubscriber(broker: broker, topics: ["owntracks/#", "homeassistant/#"])
        // Retained: the last location and the discovery config.
        #expect(await subscriber.waitForMessages(2))
        let topics = Set(subscriber.messages().map(\.topic))
        #expect(topics == ["owntracks/ann/boat", "homeassistant/device_tracker/geotrack_ann_boat/config"], "\(topics)")
        let outbox = try await TestSupport.geotrack(["outbox", "--json"], home: home)
        #expect(outbox.stdout.isEmpty, "\(outbox.stdout)")

        // A destination on the command line stands instead of the configured ones; the
        // configured user and device still name the topic.
        let live = try await MosquittoSubscriber(broker: other, topics: ["owntracks/#"])
        let flagged = try await TestSupport.geotrack(["replay", try PublishTests.log, "--config", config,
                                                "--publish", "mqtt://127.0.0.1:\(other.port)"], home: home)
        #expect(flagged.status == 0, "\(flagged.stderr)")
        #expect(await live.waitForMessages(expected.count))
        #expect(try PublishTests.received(live, topic: "owntracks/ann/boat") == expected)

        // The configured destinations, named by the flags: --publish-user and --publish-device
        // stand instead of the configured names, as they would with --publish (a service's
        // unit names the device with %H, its configuration file the broker).
        let named = try await MosquittoSubscriber(broker: broker, topics: ["owntracks/eve/#"])
        let renamed = try await TestSupport.geotrack(["replay", try PublishTests.log, "--config", config,
                                                      "--publish-user", "eve", "--publish-device", "van"], home: home)
        #expect(renamed.status == 0, "\(renamed.stderr)")
        #expect(await named.waitForMessages(expected.count))
        #expect(try PublishTests.received(named, topic: "owntracks/eve/van") == expected)

        // With nothing to publish anywhere, those flags are still a usage error, on either path.
        for json in [[], ["--json"]] {
            let nowhere = try await TestSupport.geotrack(["replay", try PublishTests.log, "--publish-device", "van"] + json, home: home)
            #expect(nowhere.status == 64, "\(nowhere.stderr)")
            #expect(nowhere.stderr == "geotrack: --publish-user, --publish-device, --publish-tid and the broker's files need a "
                    + "destination: --publish URL, or publish.destinations in the configuration\n", "\(nowhere.stderr)")
        }
    }

    @Test("home_assistant in the configuration asks for nothing where nothing is published; the flag with configured brokers announces")
    func homeAssistantSetting() async throws {
        let home = try TestSupport.temporaryDirectory()
        let quiet = home.appendingPathComponent("quiet.yaml").path
        try "publish:\n  home_assistant: true\n".write(toFile: quiet, atomically: true, encoding: .utf8)
        let plain = try await TestSupport.geotrack(["replay", try PublishTests.log, "--config", quiet], home: home)
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.stderr.isEmpty, "\(plain.stderr)")

        let broker = try await Mosquitto()
        let configured = home.appendingPathComponent("broker.yaml").path
        try "publish:\n  destinations: [mqtt://127.0.0.1:\(broker.port)]\n  user: ann\n  device: boat\n"
            .write(toFile: configured, atomically: true, encoding: .utf8)
        let run = try await TestSupport.geotrack(["replay", try PublishTests.log, "--config", configured, "--publish-home-assistant"],
                                           home: home)
        #expect(run.status == 0, "\(run.stderr)")
        let subscriber = try await MosquittoSubscriber(broker: broker, topics: ["homeassistant/#"])
        #expect(await subscriber.waitForMessages(1))
        #expect(subscriber.messages().map(\.topic) == ["homeassistant/device_tracker/geotrack_ann_boat/config"])
    }
}
