import Foundation
import GPSReports
import LocationKit
import OwnTracks
import Testing

/// OwnTracks' JSON as its apps and Recorder read it: units, rounding, unknowns left out.
struct OwnTracksTests {
    private func json(_ bytes: [UInt8]) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    @Test("a location becomes OwnTracks' units: km/h, whole metres and degrees, seconds since 1970")
    func location() throws {
        let coordinate = try #require(Coordinate(latitude: 48.117_3, longitude: 11.516_666))
        let location = Location(coordinate: coordinate, altitude: 545.44, horizontalAccuracy: 4.6, verticalAccuracy: 9.5,
                                speed: 11.57, course: 359.7, timestamp: Date(timeIntervalSince1970: 1_700_000_123.9))
        let message = OwnTracksLocation(location, trackerID: "pi", regions: ["work", "home"], createdAt: 1_700_000_130)
        let object = try json(OwnTracksJSON.encode(message))
        #expect(object["_type"] as? String == "location")
        #expect(object["lat"] as? Double == 48.117_3)
        #expect(object["lon"] as? Double == 11.516_666)
        #expect(object["tst"] as? Int == 1_700_000_123)
        #expect(object["acc"] as? Int == 5)
        #expect(object["alt"] as? Int == 545)
        #expect(object["vac"] as? Int == 10)
        #expect(object["vel"] as? Int == 42)  // 11.57 m/s = 41.65 km/h
        // 359.7 rounds to 360, which is north: 0, and the booklet adds cog only when it is not zero.
        #expect(object["cog"] == nil)
        #expect(object["tid"] as? String == "pi")
        #expect(object["t"] as? String == "t")
        #expect(object["inregions"] as? [String] == ["home", "work"])
        #expect(object["created_at"] as? Int == 1_700_000_130)
    }

    @Test("what the receiver did not report is left out, never 0 or NaN")
    func unknownsLeftOut() throws {
        let coordinate = try #require(Coordinate(latitude: -33.5, longitude: 151.25))
        let location = Location(coordinate: coordinate, speed: .nan, timestamp: Date(timeIntervalSince1970: 1_000))
        let bytes = OwnTracksJSON.encode(OwnTracksLocation(location, trackerID: nil))
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"_type":"location","lat":-33.5,"lon":151.25,"t":"t","tst":1000}"#)
    }

    @Test("acc, alt, vac, vel and cog only when not zero, as the booklet says; cog only while moving, vac only with alt")
    func zerosLeftOut() throws {
        let coordinate = try #require(Coordinate(latitude: 48.1, longitude: 11.5))
        let still = Location(coordinate: coordinate, altitude: 0.3, horizontalAccuracy: 0.4, verticalAccuracy: 3, speed: 0.1,
                             course: 123, timestamp: Date(timeIntervalSince1970: 1_000))
        let quiet = try json(OwnTracksJSON.encode(OwnTracksLocation(still, trackerID: nil)))
        for key in ["acc", "alt", "vac", "vel", "cog"] { #expect(quiet[key] == nil, "\(key): \(quiet)") }
        let moving = Location(coordinate: coordinate, altitude: 520, horizontalAccuracy: 3, verticalAccuracy: 0.2, speed: 10,
                              course: 123, timestamp: Date(timeIntervalSince1970: 1_000))
        let object = try json(OwnTracksJSON.encode(OwnTracksLocation(moving, trackerID: nil)))
        #expect(object["vel"] as? Int == 36)
        #expect(object["cog"] as? Int == 123)
        #expect(object["alt"] as? Int == 520)
        #expect(object["vac"] == nil, "a vertical accuracy that rounds to 0")
    }

    @Test("a transition carries wtst, and the crossing fix's place to gpsd's 9 decimals")
    func transitionFields() throws {
        let transition = OwnTracksTransition(event: .leave, region: "home", timestamp: 1_700_000_100, latitude: 48.1, longitude: 11.5,
                                             accuracy: 4, trackerID: "pi", waypointTimestamp: 1_700_000_000)
        let bytes = OwnTracksJSON.encode(transition)
        let object = try json(bytes)
        #expect(object["wtst"] as? Int == 1_700_000_000)
        #expect(object["tst"] as? Int == 1_700_000_100)
        #expect(object["event"] as? String == "leave")
        #expect(OwnTracksMessage(payload: bytes) == .transition(transition))
    }

    @Test("messages from phones are read: fractions where integers belong, unknown types, garbage")
    func decoding() throws {
        let phone = #"{"_type":"location","acc":12.6,"alt":30,"batt":80,"lat":52.5,"lon":13.4,"tid":"jp","tst":1700000000,"vel":0,"inregions":["home"]}"#
        guard case .location(let location)? = OwnTracksMessage(payload: Array(phone.utf8)) else {
            Issue.record("not read as a location")
            return
        }
        #expect(location.accuracy == 13)
        #expect(location.regions == ["home"])
        #expect(location.trackerID == "jp")
        #expect(OwnTracksMessage(payload: Array(#"{"_type":"lwt","tst":5}"#.utf8)) == .lastWill(timestamp: 5))
        #expect(OwnTracksMessage(payload: Array(#"{"_type":"waypoint"}"#.utf8)) == .other(type: "waypoint"))
        #expect(OwnTracksMessage(payload: Array(#"{"_type":"location","lat":95,"lon":0,"tst":1}"#.utf8)) == nil)
        #expect(OwnTracksMessage(payload: Array(#"{"_type":"location","lat":1,"lon":1}"#.utf8)) == nil)
        #expect(OwnTracksMessage(payload: Array("not json".utf8)) == nil)
        #expect(OwnTracksMessage(payload: [0xFF, 0xFE]) == nil)
    }

    @Test("a transition round-trips, with trigger c")
    func transition() throws {
        let transition = OwnTracksTransition(event: .enter, region: "harbour", timestamp: 42, latitude: 1, longitude: 2,
                                             accuracy: 3, trackerID: "bo")
        let bytes = OwnTracksJSON.encode(transition)
        #expect(try json(bytes)["t"] as? String == "c")
        #expect(OwnTracksMessage(payload: bytes) == .transition(transition))
    }

    @Test("topics: parts with MQTT's reserved characters are refused; event topics are read")
    func topics() {
        #expect(OwnTracksTopic(user: "ann", device: "pi")?.description == "owntracks/ann/pi")
        #expect(OwnTracksTopic(user: "ann", device: "pi")?.events == "owntracks/ann/pi/event")
        #expect(OwnTracksTopic(user: "a/b", device: "pi") == nil)
        #expect(OwnTracksTopic(user: "ann", device: "p+") == nil)
        #expect(OwnTracksTopic(user: "", device: "pi") == nil)
        #expect(OwnTracksTopic(user: "ann", device: "p\u{1B}i") == nil)
        #expect(OwnTracksTopic(topic: "owntracks/ann/pi/event")?.name == "ann/pi")
        #expect(OwnTracksTopic(topic: "owntracks/ann/pi/cmd") == nil)
        #expect(OwnTracksTopic(topic: "other/ann/pi") == nil)
        #expect(OwnTracksTopic(user: "ann", device: "raspberry")?.defaultTrackerID == "ry")
        // What a map's badge shows: letters and digits, not a space or an emoji.
        #expect(OwnTracksTopic(user: "ann", device: "bôat ⛵ 1")?.defaultTrackerID == "t1")
        #expect(OwnTracksTopic(user: "ann", device: "van-7")?.defaultTrackerID == "n7")
        #expect(OwnTracksTopic(user: "ann", device: "x")?.defaultTrackerID == "x")
        #expect(OwnTracksTopic(user: "ann", device: "⛵⚓")?.defaultTrackerID == "⛵⚓")
    }
}

@Suite("OwnTracks coordinates as gpsd prints them")
struct OwnTracksCoordinateTests {
    @Test("a location's lat and lon are the TPV's to the ninth decimal, halves included")
    func sameAsTPV() {
        var generator = SystemRandomNumberGenerator()
        // The first three: where rounding degrees × 1e9 (as OwnTracks messages did) and printf differ.
        var samples: [Double] = [-108.3802788085, -149.7062681425, 103.4898050745, 46.2000155, -0.0000000005, 6.150108333333334]
        for _ in 0..<5000 { samples.append(Double.random(in: -180...180, using: &generator)) }
        for degrees in samples {
            #expect(OwnTracksLocation.nanodegrees(degrees) == Double(String(format: "%.9f", degrees)), "\(degrees)")
        }
    }
}
