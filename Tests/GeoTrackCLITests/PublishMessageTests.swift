import Foundation
import GPSReports
import GeoTrackService
import GeoTrackTesting
import LocationKit
import OwnTracks
import Outbox
import Testing
@testable import GeoTrackCLI

/// What `--publish` queues, read back from the outbox: OwnTracks' messages as the booklet
/// specifies them.
@Suite("published messages")
struct PublishMessageTests {
    private static func output(_ folder: TemporaryDirectory, now: Date, interval: Int = 1) throws -> (PublishOutput, Outbox, String) {
        let outbox = try Outbox(path: folder.path + "/outbox.sqlite")
        let destination = try PublishDestination(url: "mqtt://127.0.0.1:1")
        let topic = try #require(OwnTracksTopic(user: "ann", device: "van"))
        let output = try PublishOutput(destinations: [destination], credentials: BrokerCredentials(), topic: topic, trackerID: "vn",
                                       outbox: outbox, wait: .zero, interval: interval, now: { now }, logger: nil)
        return (output, outbox, destination.outboxKey(topic: topic))
    }

    private static func objects(_ outbox: Outbox, _ key: String) async throws -> [[String: Any]] {
        try await outbox.messages(for: key, limit: 100).map {
            try #require(JSONSerialization.jsonObject(with: Data($0.payload)) as? [String: Any])
        }
    }

    @Test("at most one location per second of tst: a 10 Hz receiver's fixes give one message a second, the first")
    func onePerSecond() async throws {
        let folder = try TemporaryDirectory()
        let (output, outbox, key) = try Self.output(folder, now: Date(timeIntervalSince1970: 2_000))
        for tenth in 0..<25 {
            let coordinate = try #require(Coordinate(latitude: 48 + Double(tenth) * 1e-5, longitude: 11.5))
            try output.handle(.location(Location(coordinate: coordinate, timestamp: Date(timeIntervalSince1970: 1_000 + Double(tenth) / 10))))
        }
        let sent = try await Self.objects(outbox, key)
        #expect(sent.map { $0["tst"] as? Int } == [1_000, 1_001, 1_002])
        #expect(sent.map { $0["lat"] as? Double } == [48, 48.0001, 48.0002])
        await output.close()
    }

    @Test("--publish-interval 5: one location per 5 s of tst; a clock that went back starts over")
    func interval() async throws {
        let folder = try TemporaryDirectory()
        let (output, outbox, key) = try Self.output(folder, now: Date(timeIntervalSince1970: 2_000), interval: 5)
        let coordinate = try #require(Coordinate(latitude: 48, longitude: 11.5))
        for second in [1_000, 1_001, 1_004, 1_005, 1_009, 1_010, 500, 501] {
            try output.handle(.location(Location(coordinate: coordinate, timestamp: Date(timeIntervalSince1970: Double(second)))))
        }
        let sent = try await Self.objects(outbox, key)
        #expect(sent.map { $0["tst"] as? Int } == [1_000, 1_005, 1_010, 500])
        await output.close()
    }

    @Test("a transition carries wtst and the crossing fix's own place and time, rounded as locations are")
    func transition() async throws {
        let folder = try TemporaryDirectory()
        let (output, outbox, key) = try Self.output(folder, now: Date(timeIntervalSince1970: 1_700_000_000))
        let published = try #require(Coordinate(latitude: 1, longitude: 1))
        try output.handle(.location(Location(coordinate: published, timestamp: Date(timeIntervalSince1970: 1_700_000_010))))
        let crossing = try #require(Coordinate(latitude: 48.123_456_789_4, longitude: 11.5))
        let fix = Location(coordinate: crossing, horizontalAccuracy: 4.4, timestamp: Date(timeIntervalSince1970: 1_700_000_042.7))
        try output.handle(.event(TrackingEvent(.regionEntered("home"), at: fix.timestamp, location: fix)))
        let sent = try await outbox.messages(for: key, limit: 100)
        let event = try #require(sent.last)
        #expect(event.topic == "owntracks/ann/van/event")
        let object = try #require(JSONSerialization.jsonObject(with: Data(event.payload)) as? [String: Any])
        #expect(object["_type"] as? String == "transition")
        #expect(object["wtst"] as? Int == 1_700_000_000)
        #expect(object["tst"] as? Int == 1_700_000_042)
        #expect(object["lat"] as? Double == 48.123_456_789)
        #expect(object["lon"] as? Double == 11.5)
        #expect(object["acc"] as? Int == 4)
        #expect(object["event"] as? String == "enter")
        #expect(object["desc"] as? String == "home")
        await output.close()
    }
}
