import Foundation
import GPSReports
import GeoTrackService
import GeoTrackTesting
import LocationKit
import OwnTracks
import Outbox
import Synchronization
import Testing
@testable import GeoTrackCLI

/// What `--publish` queues, read back from the outbox: OwnTracks' messages as the booklet
/// specifies them.
@Suite("published messages")
struct PublishMessageTests {
    private static func output(_ folder: TemporaryDirectory, now: Date, interval: Int = 1,
                               clock: @escaping @Sendable () -> Double = { 0 }) throws -> (PublishOutput, Outbox, String) {
        let outbox = try Outbox(path: folder.path + "/outbox.sqlite")
        let destination = try PublishDestination(url: "mqtt://127.0.0.1:1")
        let topic = try #require(OwnTracksTopic(user: "ann", device: "van"))
        let output = try PublishOutput(destinations: [destination], credentials: BrokerCredentials(), topic: topic, trackerID: "vn",
                                       outbox: outbox, wait: .zero, interval: interval, now: { now }, clock: clock, logger: nil)
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
        try output.flush()
        let sent = try await Self.objects(outbox, key)
        #expect(sent.map { $0["tst"] as? Int } == [1_000, 1_001, 1_002])
        #expect(sent.map { $0["lat"] as? Double } == [48, 48.0001, 48.0002])
        await output.close()
    }

    @Test("a location's inregions are the regions it is in: the service says a region is entered before the location that entered it, which queues the one before")
    func regionsOfTheirOwnFix() async throws {
        let folder = try TemporaryDirectory()
        let (output, outbox, key) = try Self.output(folder, now: Date(timeIntervalSince1970: 2_000))
        func location(_ second: Int) throws -> Location {
            Location(coordinate: try #require(Coordinate(latitude: 48 + Double(second) * 1e-4, longitude: 11.5)),
                     timestamp: Date(timeIntervalSince1970: Double(second)))
        }
        // As the service sends them (walk.nmea beside a 30 m region): fix 1_048 outside,
        // then fix 1_049 crosses into the region: its event first, then its location.
        try output.handle(.location(location(1_048)))
        try output.handle(.event(TrackingEvent(.regionEntered("depot"), at: Date(timeIntervalSince1970: 1_049))))
        try output.handle(.location(location(1_049)))
        try output.handle(.event(TrackingEvent(.regionExited("depot"), at: Date(timeIntervalSince1970: 1_050))))
        try output.handle(.location(location(1_050)))
        try output.flush()
        let locations = try await Self.objects(outbox, key).filter { $0["_type"] as? String == "location" }
        #expect(locations.map { $0["tst"] as? Int } == [1_048, 1_049, 1_050])
        #expect(locations.map { $0["inregions"] as? [String] } == [nil, ["depot"], nil])
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
        try output.flush()
        let sent = try await Self.objects(outbox, key)
        #expect(sent.map { $0["tst"] as? Int } == [1_000, 1_005, 1_010, 500])
        await output.close()
    }

    @Test("a fix time goes out in its last report: RMC's speed and course, not the speed gpsd derived for the GGA before it")
    func lastReportOfATime() async throws {
        let folder = try TemporaryDirectory()
        let (output, outbox, key) = try Self.output(folder, now: Date(timeIntervalSince1970: 2_000))
        let coordinate = try #require(Coordinate(latitude: -27.21, longitude: 153.05))
        // haicom-305N at 09:53:05.802: gpsd's TPV for the GGA, then for the RMC of the same time.
        let time = Date(timeIntervalSince1970: 1_000.802)
        try output.handle(.location(Location(coordinate: coordinate, speed: 9.224, timestamp: time)))
        try output.handle(.location(Location(coordinate: coordinate, speed: 0.993, course: 133.96, timestamp: time)))
        #expect(try await Self.objects(outbox, key).isEmpty, "queued before the fix time's last report could come")
        // The next fix time queues the one before it.
        try output.handle(.location(Location(coordinate: coordinate, speed: 11.448, timestamp: Date(timeIntervalSince1970: 1_001.802))))
        let first = try await Self.objects(outbox, key)
        #expect(first.map { $0["tst"] as? Int } == [1_000])
        #expect(first.first?["vel"] as? Int == 4, "0.993 m/s is 3.6 km/h")
        #expect(first.first?["cog"] as? Int == 134)
        try output.flush()
        #expect(try await Self.objects(outbox, key).map { $0["tst"] as? Int } == [1_000, 1_001])
        await output.close()
    }

    @Test("a chosen location waits a receiver's cycle for more reports of its time, then goes on the timer")
    func chosenWaitsACycle() async throws {
        let folder = try TemporaryDirectory()
        let seconds = Mutex(50.0)
        let (output, outbox, key) = try Self.output(folder, now: Date(timeIntervalSince1970: 2_000), clock: { seconds.withLock { $0 } })
        #expect(output.nextTick == nil, "nothing waits")
        let coordinate = try #require(Coordinate(latitude: 48, longitude: 11.5))
        try output.handle(.location(Location(coordinate: coordinate, timestamp: Date(timeIntervalSince1970: 1_000))))
        #expect(output.nextTick == PublishOutput.reportWait)
        seconds.withLock { $0 += 0.25 }
        output.tick()
        #expect(try await Self.objects(outbox, key).isEmpty, "queued before its wait was over")
        #expect(output.nextTick == PublishOutput.reportWait - 0.25)
        seconds.withLock { $0 += PublishOutput.reportWait }
        #expect(output.nextTick == 0)
        output.tick()
        #expect(try await Self.objects(outbox, key).map { $0["tst"] as? Int } == [1_000], "a receiver gone quiet keeps its last fix unsent")
        #expect(output.nextTick == nil)
        try output.flush()
        #expect(try await Self.objects(outbox, key).count == 1, "queued twice")
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
