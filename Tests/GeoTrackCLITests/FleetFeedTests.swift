import Foundation
import MQTT
import OwnTracks
import Testing
@testable import GeoTrackCLI

/// The broker's events as `fleet` and `serve --fleet` both read them (``FleetFeed``).
@Suite("the fleet's feed")
struct FleetFeedTests {
    let broker = "mqtt://127.0.0.1:1883"

    private func location(_ tst: Int, lat: Double = 52.5) -> MQTTEvent {
        .message(topic: "owntracks/ann/phone", payload: Array(#"{"_type":"location","lat":\#(lat),"lon":13.4,"tst":\#(tst)}"#.utf8),
                 retained: false)
    }

    @Test("connected subscribes; a failure is said once until its reason changes; a disconnect is shown")
    func connection() {
        var feed = FleetFeed()
        #expect(feed.receive(.connected(sessionPresent: false), broker: broker) == .subscribe)
        #expect(feed.connected)
        #expect(feed.receive(.failed(code: 8), broker: broker) == .failed(MQTTClient.failureReason(8)))
        #expect(feed.receive(.failed(code: 8), broker: broker) == FleetFeed.Action.none)
        #expect(feed.receive(.disconnected(code: 7), broker: broker) == .changed)
        #expect(!feed.connected)
        #expect(feed.receive(.connected(sessionPresent: false), broker: broker) == .subscribe)
        #expect(feed.problem == nil)
        #expect(feed.receive(.subscribed(messageID: 1), broker: broker) == FleetFeed.Action.none)
        // A session the broker kept (--client-id) keeps its subscriptions: subscribing again would
        // only bring every retained location again.
        #expect(feed.receive(.disconnected(code: 7), broker: broker) == .changed)
        #expect(feed.receive(.connected(sessionPresent: true), broker: broker) == .changed)
        #expect(feed.connected)
    }

    @Test("a retained copy of the location last received on a topic is not handed out again; a new one, or one sent again live, is")
    func retainedRepeat() {
        var feed = FleetFeed()
        let payload = Array(#"{"_type":"location","lat":52.5,"lon":13.4,"tst":1000}"#.utf8)
        let retained = MQTTEvent.message(topic: "owntracks/ann/phone", payload: payload, retained: true)
        guard case .location = feed.receive(retained, broker: broker) else { Issue.record("the first retained location was not handed out"); return }
        // Subscribed again after a lost connection: the broker sends its retained copy again.
        #expect(feed.receive(retained, broker: broker) == FleetFeed.Action.none)
        guard case .location = feed.receive(.message(topic: "owntracks/ann/phone", payload: payload, retained: false), broker: broker) else {
            Issue.record("a location the device sent again live was not handed out"); return
        }
        let other = Array(#"{"_type":"location","lat":52.6,"lon":13.4,"tst":1010}"#.utf8)
        guard case .location = feed.receive(.message(topic: "owntracks/ann/phone", payload: other, retained: true), broker: broker) else {
            Issue.record("a new retained location was not handed out"); return
        }
        guard case .location = feed.receive(.message(topic: "owntracks/bob/phone", payload: payload, retained: true), broker: broker) else {
            Issue.record("the same payload on another topic was not handed out"); return
        }
    }

    @Test("every location is handed out, one older than the device's kept one marked unchanged; other topics and payloads are not")
    func locations() throws {
        var feed = FleetFeed()
        let now = Date(timeIntervalSince1970: 2_000)
        guard case .location(let first, let topic, _, let changed) = feed.receive(location(1_000), broker: broker, at: now) else {
            Issue.record("a location was not handed out")
            return
        }
        #expect(first.timestamp == 1_000 && topic == "owntracks/ann/phone" && changed)
        guard case .location(_, _, _, let older) = feed.receive(location(900, lat: 1), broker: broker, at: now) else {
            Issue.record("an older location was not handed out")
            return
        }
        #expect(!older)
        #expect(feed.roster.devices["ann/phone"]?.location?.latitude == 52.5)
        #expect(feed.receive(.message(topic: "elsewhere/ann", payload: Array(#"{"_type":"location","lat":1,"lon":2,"tst":3}"#.utf8),
                                      retained: false), broker: broker, at: now) == FleetFeed.Action.none)
        #expect(feed.receive(.message(topic: "owntracks/ann/phone", payload: Array("not json".utf8), retained: false),
                             broker: broker, at: now) == FleetFeed.Action.none)
        let will = Array(#"{"_type":"lwt","tst":1100}"#.utf8)
        #expect(feed.receive(.message(topic: "owntracks/ann/phone", payload: will, retained: false),
                             broker: broker, at: now) == .lastWill(topic: "owntracks/ann/phone", payload: will, changed: true))
        #expect(feed.roster.devices["ann/phone"]?.gone == true)
    }

    @Test("a refused login is exit 77, naming where the user and the password come from")
    func refused() {
        var feed = FleetFeed()
        guard case .refused(let error) = feed.receive(.refused(code: 5), broker: broker) else {
            Issue.record("a refusal was not an error")
            return
        }
        #expect(error.status == .noPermission)
        #expect(error.message.hasPrefix("\(broker) refused the login"))
        #expect(error.message.hasSuffix("check the user in the URL, and the password in --publish-password-file or GEOTRACK_PUBLISH_PASSWORD"))
    }
}
