// Only the public API: no @testable import.
import Foundation
import GeoTrackTesting
import GPSReports
import LocationKit
import Logging
import Testing

@MainActor
@Suite struct ReplayDoneWhenTests {
    static let log = Bundle.module.path(forResource: "garmin15x", ofType: "nmea", inDirectory: "Logs") ?? "Logs/garmin15x.nmea"

    @Test(.timeLimit(.minutes(5)))
    func delegateAndTwoSubscribersEachGetEveryReplayedLocation() async throws {
        let directory = try TemporaryDirectory()
        let store = AuthorizationStore(directory: directory.path, policyPath: directory.path + "/policy")
        try store.write(.authorizedWhenInUse)
        let clock = ManualClock()
        let source = ReplayLocationSource(path: Self.log, pacing: .asFastAsPossible, clock: clock)
        let manager = LocationManager(source: source, clock: clock, authorizationStore: store, logger: Logger(label: "test"))
        let delegate = RecordingLocationDelegate()
        manager.delegate = delegate

        let first = manager.rx.didUpdateLocations
        let second = manager.rx.didUpdateLocations
        let statuses = manager.rx.didChangeReceiverStatus
        manager.startUpdatingLocation()
        _ = await statuses.firstMatching { $0.sourceState == .finished }

        let delivered = delegate.locations
        #expect(delivered.count >= 5)
        let seenByFirst = await first.firstElements(delivered.count).flatMap { $0 }
        let seenBySecond = await second.firstElements(delivered.count).flatMap { $0 }
        #expect(seenByFirst == delivered)
        #expect(seenBySecond == delivered)
        // The log starts at 3238.9148 N 10822.4466 W, moving at 2.7 m/s.
        let logStart = try #require(Coordinate(latitude: 32.648580, longitude: -108.374110))
        let start = try #require(delivered.first)
        #expect(start.coordinate.distance(to: logStart) < 10)
    }
}
