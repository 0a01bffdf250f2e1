// Only the public API: no @testable import.
import GeoTrackTesting
import GPSReports
import LocationKit
import Logging
import Testing

@MainActor
@Suite struct DoneWhenTests {
    @Test func delegateAndTwoSubscribersEachGetEveryLocation() async throws {
        let directory = try TemporaryDirectory()
        let store = AuthorizationStore(directory: directory.path, policyPath: directory.path + "/policy")
        try store.write(.authorizedWhenInUse)
        let clock = ManualClock()
        let origin = try #require(Coordinate(latitude: 52.52, longitude: 13.405))
        let fixes = (0..<5).map { Fix.synthetic(at: origin.offset(north: Double($0) * 30, east: 0), second: Double($0)) }
        let manager = LocationManager(source: ScriptedLocationSource.track(fixes, interval: .seconds(1), clock: clock),
                                      clock: clock, authorizationStore: store, logger: Logger(label: "test"))
        let delegate = RecordingLocationDelegate()
        manager.delegate = delegate

        let first = manager.rx.didUpdateLocations
        let second = manager.rx.didUpdateLocations
        let firstTask = Task { await first.firstElements(5).flatMap { $0 } }
        let secondTask = Task { await second.firstElements(5).flatMap { $0 } }

        manager.startUpdatingLocation()
        for _ in 1..<5 {
            await clock.sleepers(atLeast: 1)
            clock.advance(by: .seconds(1))
        }
        let seenByFirst = await firstTask.value
        let seenBySecond = await secondTask.value

        let expected = fixes.compactMap { Location(fix: $0, sourceInformation: .simulated) }
        #expect(expected.count == 5)
        #expect(delegate.locations == expected)
        #expect(seenByFirst == expected)
        #expect(seenBySecond == expected)
        #expect(manager.location == expected.last)
    }
}
