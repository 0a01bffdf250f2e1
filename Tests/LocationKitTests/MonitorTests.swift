import Foundation
import GeoTrackTesting
import GPSReports
import LocationKit
import Testing

/// `Monitor`: iOS 17's CLMonitor, with its conditions kept by name across runs.
@MainActor
@Suite(.timeLimit(.minutes(5)))
struct MonitorTests {
    nonisolated static let added = Date(timeIntervalSince1970: 1_735_000_000)

    static func open(_ name: String = "geofences", in directory: TemporaryDirectory) throws -> Monitor {
        try Monitor(named: name, directory: directory.path + "/monitors", now: { added })
    }

    static func location(north: Double, second: Double, accuracy: Double = 5) throws -> Location {
        try #require(Location(fix: .synthetic(at: .at(north: north), second: second, accuracy: accuracy)))
    }

    @Test("add, record and remove are kept by name: a monitor opened again finds its conditions and last events")
    func persistsByName() async throws {
        let directory = try TemporaryDirectory()
        let monitor = try Self.open(in: directory)
        let home = CircularGeographicCondition(center: .at(north: 0), radius: 100)
        try await monitor.add(home, identifier: "home")
        try await monitor.add(CircularGeographicCondition(center: .at(north: 5_000), radius: 300), identifier: "work",
                              assuming: .unsatisfied)
        #expect(await monitor.identifiers == ["home", "work"])
        let first = try #require(await monitor.record(for: "home")?.lastEvent)
        #expect(first.identifier == "home" && first.date == Self.added && first.state == .unknown)
        await monitor.evaluate(try Self.location(north: 10, second: 60))
        let reopened = try Self.open(in: directory)
        #expect(await reopened.identifiers == ["home", "work"])
        let record = try #require(await reopened.record(for: "home"))
        #expect(record.condition == home)
        #expect(record.lastEvent.state == .satisfied)
        #expect(record.lastEvent.date == Date(timeIntervalSince1970: 1_735_689_660))
        try await reopened.remove("work")
        #expect(await (try Self.open(in: directory)).identifiers == ["home"])
        // Another name is another monitor.
        #expect(await (try Self.open("other", in: directory)).identifiers.isEmpty)
        var info = stat()
        #expect(stat(monitor.path, &info) == 0 && info.st_mode & 0o777 == 0o600)
    }

    @Test("events: unknown, then satisfied on entering and unsatisfied on leaving, with hysteresis and the fixes' times")
    func eventsFollowTheDevice() async throws {
        let directory = try TemporaryDirectory()
        let monitor = try Self.open(in: directory)
        try await monitor.add(CircularGeographicCondition(center: .at(north: 0), radius: 100), identifier: "home")
        let seen = Task { await monitor.events.firstElements(3) }
        for (second, north) in [(0.0, 500.0), (1, 400), (2, 95), (3, 50), (4, 105), (5, 130), (6, 20)] {
            await monitor.evaluate(try Self.location(north: north, second: second))
        }
        let events = await seen.value
        #expect(events.map(\.state) == [.unsatisfied, .satisfied, .unsatisfied])
        #expect(events.map { $0.date.timeIntervalSince1970 - 1_735_689_600 } == [0, 3, 5])
        #expect(await monitor.record(for: "home")?.lastEvent.state == .satisfied)
    }

    @Test("a location no more accurate than the radius decides nothing: an approximate one leaves the state unknown")
    func poorAccuracyDecidesNothing() async throws {
        let directory = try TemporaryDirectory()
        let monitor = try Self.open(in: directory)
        try await monitor.add(CircularGeographicCondition(center: .at(north: 0), radius: 100), identifier: "home")
        let approximate = try #require(Location(fix: ApproximateLocation.reduce(.synthetic(at: .at(north: 0)))))
        await monitor.evaluate(approximate)
        #expect(await monitor.record(for: "home")?.lastEvent.state == .unknown)
    }

    @Test("bad names, radii and files are refused with a message that says what to do; a link is not followed")
    func refusesBadInput() async throws {
        let directory = try TemporaryDirectory()
        for name in ["", ".hidden", "a/b", "../escape", String(repeating: "x", count: 65), "spa ce"] {
            #expect(throws: LocationError.self) { try Self.open(name, in: directory) }
        }
        let monitor = try Self.open(in: directory)
        for radius in [0, -1, .nan, .infinity, 100_001] {
            await #expect(throws: LocationError.self) {
                try await monitor.add(CircularGeographicCondition(center: .at(north: 0), radius: radius), identifier: "x")
            }
        }
        await #expect(throws: LocationError.self) {
            try await monitor.add(CircularGeographicCondition(center: .at(north: 0), radius: 10), identifier: "")
        }
        try FileManager.default.createDirectory(atPath: directory.path + "/monitors", withIntermediateDirectories: true)
        try "{\"version\":1,\"records\":[{]}".write(toFile: directory.path + "/monitors/broken.json", atomically: true, encoding: .utf8)
        let error = #expect(throws: LocationError.self) { try Self.open("broken", in: directory) }
        #expect(error?.description.contains("remove it to start afresh") == true)
        let target = directory.path + "/elsewhere.json"
        try "{\"version\":1,\"records\":[]}".write(toFile: target, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: directory.path + "/monitors/linked.json", withDestinationPath: target)
        #expect(throws: LocationError.self) { try Self.open("linked", in: directory) }
    }

    @Test("startMonitoring feeds the monitor from the manager's live updates, starting its source")
    func feedsFromTheManager() async throws {
        let track = [300.0, 200, 40, 10, 250].enumerated().map { Fix.synthetic(at: .at(north: $1), second: Double($0)) }
        let harness = try Harness(fixes: track)
        let directory = try TemporaryDirectory()
        let monitor = try Self.open(in: directory)
        try await monitor.add(CircularGeographicCondition(center: .at(north: 0), radius: 100), identifier: "home")
        await monitor.startMonitoring(with: harness.manager)
        let events = await monitor.events.firstElements(3)
        #expect(events.map(\.state) == [.unsatisfied, .satisfied, .unsatisfied])
        await monitor.stopMonitoring()
    }
}
