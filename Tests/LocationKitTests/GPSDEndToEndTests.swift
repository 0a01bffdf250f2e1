import GeoTrackKit
import Foundation
import GeoTrackTesting
import GPSD
import GPSReports
import LocationKit
import Testing

/// The whole stack against a real gpsd: gpsfake plays the Garmin 15x log, the GPSD client
/// reads it, the manager delivers locations and headings to its delegate and its streams.
@MainActor
@Suite(.serialized) struct GPSDEndToEndTests {
    @Test(.timeLimit(.minutes(5)))
    func gpsfakeFixesReachTheDelegateAndTheStreams() async throws {
        let log = Bundle.module.path(forResource: "garmin15x", ofType: "nmea", inDirectory: "Logs") ?? "Logs/garmin15x.nmea"
        // Looping: the receiver stays present however late the main actor looks. Played once, the
        // log ends 6.6 s after the manager watches, gpsd then reports the receiver gone, and a
        // manager that got its three locations on a busy machine only after that (12 s once) no
        // longer has location services enabled when the test asks.
        let server = try await GPSFake(log: log, once: false)
        let directory = try TemporaryDirectory()
        let store = AuthorizationStore(directory: directory.path, policyPath: directory.path + "/policy")
        try store.write(.authorizedWhenInUse)
        // No logger: optional, as in swift-nio.
        let manager = LocationManager(gpsd: GPSDConfiguration(host: "127.0.0.1", port: server.port),
                                      authorizationStore: store)
        let delegate = RecordingLocationDelegate()
        manager.delegate = delegate
        let locations = manager.rx.location
        let headings = manager.rx.didUpdateHeading
        manager.startUpdatingLocation()
        manager.startUpdatingHeading()

        let received = await locations.firstElements(3)
        #expect(received.count == 3)
        let first = try #require(received.first)
        // 3238.91xx N 10822.44xx W in the log.
        #expect(abs(first.coordinate.latitude - 32.6486) < 0.001)
        #expect(abs(first.coordinate.longitude - -108.3741) < 0.001)
        #expect(first.timestamp > Date(timeIntervalSince1970: 1_666_000_000))
        #expect(!first.isStale)
        #expect(first.sourceInformation == .receiver)
        #expect(manager.locationServicesEnabled)
        #expect(Array(delegate.locations.prefix(3)) == received)
        // About 2.6 m/s over ground: fast enough for the course to be a heading.
        let heading = try #require(await headings.firstElements(1).first)
        #expect(heading.source == .courseOverGround)
        #expect(abs(heading.bestHeading - 246) < 5)
        manager.stopUpdatingLocation()
        manager.stopUpdatingHeading()
        try await server.stop()
    }
}
