import Foundation
import GeoTrackTesting
import GPSReports
import LocationKit
import Testing

/// The smaller CoreLocation members: significant-change monitoring, activity types, and the
/// class methods ported code calls.
@MainActor
@Suite(.timeLimit(.minutes(5)))
struct CoreLocationParityTests {
    /// A walk north at 50 m a minute, one fix a minute, for `minutes` minutes.
    static func walk(_ minutes: Int) -> [Fix] {
        (0...minutes).map { Fix.synthetic(at: .at(north: Double($0) * 50), second: Double($0) * 60) }
    }

    @Test("a receiver status prints in words, not as a struct dump")
    func receiverStatusInWords() {
        #expect(ReceiverStatus().description == "nothing heard yet, 0 of 0 satellites used")
        #expect(ReceiverStatus(sourceState: .receiverPresent, satellitesSeen: 12, satellitesUsed: 8, fixMode: .threeD).description
            == "receiver present, 3D, 8 of 12 satellites used")
        #expect(ReceiverStatus(sourceState: .stale, satellitesSeen: nil, satellitesUsed: 5, fixMode: .twoD, isStale: true).description
            == "stale, 2D, 5 satellites used")
        #expect(ReceiverStatus(sourceState: .receiverPresent, satellitesUsed: 0, fixMode: .threeD, isStale: true).description
            == "receiver present, 3D, 0 of 0 satellites used, last fix stale")
    }

    @Test("significant changes: the first location, then one only after 500 m and 5 minutes")
    func significantChanges() async throws {
        let harness = try Harness(fixes: Self.walk(24))
        let statuses = harness.manager.rx.receiverStatus
        let ended = Task { await statuses.firstMatching { $0.sourceState == .finished } }
        harness.manager.startMonitoringSignificantLocationChanges()
        _ = await ended.value
        let minutes = harness.delegate.locations.map { ($0.timestamp.timeIntervalSince1970 - 1_735_689_600) / 60 }
        #expect(minutes == [0, 10, 20])
        harness.manager.stopMonitoringSignificantLocationChanges()
    }

    @Test("with standard updates running, every location is delivered once, not twice")
    func standardUpdatesWin() async throws {
        let harness = try Harness(fixes: Self.walk(6))
        let located = harness.manager.rx.didUpdateLocations
        let seen = Task { await located.firstElements(7) }
        harness.manager.startMonitoringSignificantLocationChanges()
        harness.manager.startUpdatingLocation()
        #expect(await seen.value.count == 7)
        #expect(harness.delegate.locations.count == 7)
    }

    @Test("stopping and starting again delivers a new initial location whatever distanceFilter says, as CoreLocation does")
    func restartDeliversAnInitialLocation() async throws {
        // A receiver standing still: the same spot, then 3 m away, in each play of the script.
        let harness = try Harness(fixes: [.synthetic(at: .at(north: 0), second: 0), .synthetic(at: .at(north: 3), second: 1)])
        let manager = harness.manager
        manager.distanceFilter = 100
        let firstRun = manager.rx.didChangeReceiverStatus
        manager.startUpdatingLocation()
        _ = await firstRun.firstMatching { $0.sourceState == .finished }
        #expect(harness.delegate.locations.count == 1)

        let secondRun = manager.rx.didChangeReceiverStatus
        manager.stopUpdatingLocation()
        manager.startUpdatingLocation()
        _ = await secondRun.firstMatching { $0.sourceState == .finished }
        // startUpdatingLocation's doc: a stop in between causes a new initial event; the 3 m
        // step after it is still held back by the filter.
        #expect(harness.delegate.locations.map(\.coordinate) == [.at(north: 0), .at(north: 0)])

        // Calling start again without a stop is no restart: "several times in succession does
        // not automatically result in new events". The script plays again, all within 100 m.
        let thirdRun = manager.rx.didChangeReceiverStatus
        manager.startUpdatingLocation()
        _ = await thirdRun.firstMatching { $0.sourceState == .finished }
        #expect(harness.delegate.locations.count == 2)
    }

    @Test("a requestLocation answered at its timeout while updates run never sends the delegate an older location")
    func requestLocationTimeoutKeepsTheDelegateChronological() async throws {
        // Five fixes of 9.5 m; the request wants 5 m, so only its timeout answers it.
        // The receiver goes on after them (quiet): only the timeout can answer.
        let fixes = (0..<5).map { Fix.synthetic(at: .at(north: Double($0) * 20), second: Double($0), accuracy: 9.5) }
        let harness = try Harness { _ in [.state(.receiverPresent)] + fixes.map { .fix($0) } + [.wait(.seconds(600))] }
        let manager = harness.manager
        manager.desiredAccuracy = 5
        let located = manager.rx.didUpdateLocations
        manager.startUpdatingLocation()
        manager.requestLocation()
        let answer = Task { try await manager.rx.requestLocation() }
        _ = await located.firstElements(5)
        #expect(harness.delegate.locations.count == 5)

        // The request's timeout and the script's wait.
        await harness.clock.sleepers(atLeast: 2)
        harness.clock.advance(by: manager.requestLocationTimeout)
        // The awaited answer is the most accurate fix seen, the first of the equals...
        let best = try await answer.value
        #expect(best.timestamp == fixes[0].time)
        // ...but the delegate, which had fixes up to 4 s already, is not handed it again as the
        // current location: didUpdateLocations stays in the order the fixes occurred, as
        // CoreLocation's does, and `location` stays the newest.
        let times = harness.delegate.locations.map(\.timestamp)
        #expect(times == times.sorted())
        #expect(manager.location?.timestamp == fixes[4].time)
        #expect(harness.delegate.errors.isEmpty)
    }

    @Test("significant changes under denied access are refused at once, never silent")
    func significantChangesDenied() throws {
        let harness = try Harness({ _ in [] }, status: .denied)
        harness.manager.startMonitoringSignificantLocationChanges()
        #expect(harness.delegate.errors == [.denied])
    }

    @Test("activityType sets the pause rule of that activity; airborne never pauses")
    func activityTypes() async throws {
        let still = (0..<200).map { Fix.synthetic(at: .at(north: 0), second: Double($0)) }
        let harness = try Harness(fixes: still)
        let manager = harness.manager
        manager.activityType = .fitness
        #expect(manager.pauseRadius == 5 && manager.pauseInterval == .seconds(30))
        manager.activityType = .airborne
        #expect(manager.pauseRadius == 0)
        manager.pausesLocationUpdatesAutomatically = true
        let located = manager.rx.didUpdateLocations
        let seen = Task { await located.firstElements(200) }
        manager.startUpdatingLocation()
        #expect(await seen.value.count == 200)
        #expect(!harness.delegate.events.contains(.pause))
    }

    @Test("the class methods ported code asks answer yes; allowsBackgroundLocationUpdates changes nothing")
    func classMethods() throws {
        #expect(LocationManager.isMonitoringAvailable(for: CircularRegion.self))
        #expect(LocationManager.significantLocationChangeMonitoringAvailable())
        let harness = try Harness(fixes: [])
        harness.manager.allowsBackgroundLocationUpdates = true
        #expect(harness.manager.allowsBackgroundLocationUpdates)
    }
}
