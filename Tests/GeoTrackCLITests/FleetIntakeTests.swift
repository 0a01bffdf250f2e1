import Foundation
import OwnTracks
import Testing
@testable import GeoTrackCLI

/// What real OwnTracks apps and the Recorder send, taken by the fleet view as they mean it.
@Suite("fleet takes what OwnTracks apps send")
struct FleetIntakeTests {
    private func message(_ json: String, receivedAt: Int? = nil) -> OwnTracksMessage? {
        OwnTracksMessage(payload: Array(json.utf8), receivedAt: receivedAt)
    }

    @Test("a string tst is read; no tst at all is the time of receipt; an lwt's string tst too")
    func stringAndMissingTimes() throws {
        guard case .location(let stringTime)? = message(#"{"_type":"location","lat":"52.5","lon":13.4,"tst":"1700000000"}"#) else {
            Issue.record("a string tst was refused")
            return
        }
        #expect(stringTime.timestamp == 1_700_000_000)
        #expect(stringTime.latitude == 52.5)
        guard case .location(let untimed)? = message(#"{"_type":"location","lat":52.5,"lon":13.4}"#, receivedAt: 1_800_000_000) else {
            Issue.record("a location without tst was refused")
            return
        }
        #expect(untimed.timestamp == 1_800_000_000)
        #expect(message(#"{"_type":"location","lat":52.5,"lon":13.4}"#) == nil, "no tst and no time of receipt: nothing to show")
        #expect(message(#"{"_type":"lwt","tst":"1700000000"}"#) == .lastWill(timestamp: 1_700_000_000))
        guard case .transition(let transition)? = message(#"{"_type":"transition","event":"enter","desc":"home","tst":"42","wtst":"7"}"#) else {
            Issue.record("a transition with string times was refused")
            return
        }
        #expect(transition.timestamp == 42 && transition.waypointTimestamp == 7)
    }

    @Test("iOS's -1 placeholders are unknown, not '-1.0 km/h -1°'")
    func placeholders() throws {
        var roster = FleetRoster()
        let sent = try #require(message(#"{"_type":"location","lat":52.5,"lon":13.4,"tst":1000,"acc":-1,"vel":-1,"cog":-1,"vac":-1,"alt":-12}"#))
        roster.receive(topic: "owntracks/ann/phone", message: sent, receivedAt: Date(timeIntervalSince1970: 1_000))
        let device = try #require(roster.devices["ann/phone"])
        #expect(device.location?.velocity == nil && device.location?.course == nil && device.location?.accuracy == nil)
        #expect(device.location?.verticalAccuracy == nil)
        #expect(device.location?.altitude == -12, "below sea level is a value")
        let line = FleetScreen.line(device, now: Date(timeIntervalSince1970: 1_004), staleAfter: 60, options: RenderOptions(format: .dd))
        #expect(line == "ann/phone  52.50000°N 13.40000°E  4 s ago", "\(line)")
        #expect(!line.contains("-1"))
    }

    @Test("a location with a future tst does not freeze the device: later ones, at true times, replace it")
    func futureTimestamp() throws {
        var roster = FleetRoster()
        let ahead = try #require(message(#"{"_type":"location","lat":1,"lon":1,"tst":4000000000}"#))
        roster.receive(topic: "owntracks/ann/pi", message: ahead, receivedAt: Date(timeIntervalSince1970: 1_000))
        let next = try #require(message(#"{"_type":"location","lat":2,"lon":2,"tst":1010}"#))
        let replaced = roster.receive(topic: "owntracks/ann/pi", message: next, receivedAt: Date(timeIntervalSince1970: 1_010))
        #expect(replaced)
        #expect(roster.devices["ann/pi"]?.location?.latitude == 2)
        // A late retained message, older than the kept one, still changes nothing.
        let late = try #require(message(#"{"_type":"location","lat":3,"lon":3,"tst":900}"#))
        let changed = roster.receive(topic: "owntracks/ann/pi", message: late, receivedAt: Date(timeIntervalSince1970: 1_020))
        #expect(!changed)
        #expect(roster.devices["ann/pi"]?.location?.latitude == 2)
    }

    @Test("a device that sends only transitions is shown with its region and last crossing, not 'no position yet'")
    func transitionOnly() throws {
        var roster = FleetRoster()
        let entered = try #require(message(#"{"_type":"transition","event":"enter","desc":"home","tst":1000,"tid":"bo"}"#))
        roster.receive(topic: "owntracks/ann/boat/event", message: entered)
        let device = try #require(roster.devices["ann/boat"])
        let line = FleetScreen.line(device, now: Date(timeIntervalSince1970: 1_090), staleAfter: 60, options: RenderOptions())
        #expect(line == "ann/boat  bo  [home]  entered home 1 min ago")
    }

    @Test("double-width names are cut by the columns they take, so a line never wraps")
    func doubleWidth() {
        #expect(FleetScreen.visibleLength("東京/電話") == 9)
        #expect(FleetScreen.visibleLength("ann/🚗") == 6)
        let cut = FleetScreen.fit("東京東京東京東京東京  52.5°N", width: 11)
        #expect(FleetScreen.visibleLength(cut) <= 11, "\(cut)")
        #expect(cut == "東京東京東…")
    }

    @Test("--json keeps every field the device sent (batt, SSID, conn, BSSID…), normalising those geotrack reads")
    func jsonKeepsFields() throws {
        let payload = #"{"_type":"location","lat":52.5,"lon":13.4,"tst":"1700000000","batt":80,"bs":2,"SSID":"home-net","BSSID":"aa:bb","conn":"w","vel":-1,"inrids":["6da9cf"],"m":1}"#
        guard case .location(let location)? = message(payload) else {
            Issue.record("not read")
            return
        }
        let line = FleetJSON.line(location, payload: Array(payload.utf8), topic: "owntracks/ann/phone", receivedAt: Date(timeIntervalSince1970: 1_700_000_001.25))
        let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["batt"] as? Int == 80)
        #expect(object["bs"] as? Int == 2)
        #expect(object["SSID"] as? String == "home-net")
        #expect(object["BSSID"] as? String == "aa:bb")
        #expect(object["conn"] as? String == "w")
        #expect(object["inrids"] as? [String] == ["6da9cf"])
        #expect(object["m"] as? Int == 1)
        #expect(object["tst"] as? Int == 1_700_000_000, "a string tst normalised to a number")
        #expect(object["vel"] == nil, "a -1 placeholder left out")
        #expect(object["topic"] as? String == "owntracks/ann/phone")
        #expect(object["received_at"] as? Double == 1_700_000_001.25)
        #expect(line.contains(#""batt":80"#), "whole numbers stay integers: \(line)")
    }
}
