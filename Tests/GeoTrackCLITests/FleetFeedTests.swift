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
        #expect(feed.receive(.connected, broker: broker) == .subscribe)
        #expect(feed.connected)
        #expect(feed.receive(.failed(code: 8), broker: broker) == .failed(MQTTClient.failureReason(8)))
        #expect(feed.receive(.failed(code: 8), broker: broker) == FleetFeed.Action.none)
        #expect(feed.receive(.disconnected(code: 7), broker: broker) == .changed)
        #expect(!feed.connected)
        #expect(feed.receive(.connected, broker: broker) == .subscribe)
        #expect(feed.problem == nil)
        #expect(feed.receive(.subscribed(messageID: 1), broker: broker) == FleetFeed.Action.none)
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
        #expect(feed.receive(.message(topic: "owntracks/ann/phone", payload: Array(#"{"_type":"lwt","tst":1100}"#.utf8), retained: false),
                             broker: broker, at: now) == .changed)
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
