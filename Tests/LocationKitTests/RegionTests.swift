import Foundation
import GeoTrackTesting
import GPSReports
import LocationKit
import Testing

@MainActor
@Suite struct RegionTests {
    let region = CircularRegion(center: Harness.origin, radius: 100, identifier: "home")

    /// Fixes at these distances north of the centre, one second apart.
    func track(_ norths: [Double], accuracy: Double? = 5) -> [Fix] {
        norths.enumerated().map { Fix.synthetic(at: .at(north: $0.element), second: Double($0.offset), accuracy: accuracy) }
    }

    func run(_ fixes: [Fix], configure: (LocationManager) -> Void = { _ in }) async throws -> [RecordingLocationDelegate.Event] {
        let harness = try Harness(fixes: fixes)
        let statuses = harness.manager.rx.didChangeReceiverStatus
        configure(harness.manager)
        harness.manager.startMonitoring(for: region)
        _ = await statuses.firstMatching { $0.sourceState == .finished }
        return Self.regionEvents(harness.delegate.events)
    }

    /// The events a region makes: not the receiver's, nor the status the manager was made with.
    static func regionEvents(_ events: [RecordingLocationDelegate.Event]) -> [RecordingLocationDelegate.Event] {
        events.filter {
            switch $0 {
            case .receiver, .authorization: false
            default: true
            }
        }
    }

    @Test func crossingWithBoundaryJitterEntersAndExitsOnce() async throws {
        // Approach, jitter around the edge (within the 10 m band), go deep, leave with jitter, go far.
        let approach: [Double] = [300, 250, 200, 150, 120, 105, 97, 103, 95, 106, 92, 99, 89]
        let inside: [Double] = [60, 20, 0, 30, 80]
        let leave: [Double] = [95, 104, 91, 108, 96, 109, 100, 111, 150, 300]
        let events = try await run(track(approach + inside + leave))
        #expect(events == [
            .startedMonitoring("home"),
            .state(.outside, "home"),
            .state(.inside, "home"), .enter("home"),
            .state(.outside, "home"), .exit("home"),
        ])
    }

    /// Notes where the manager says the device is when a region is entered or left.
    final class WhereDelegate: LocationManagerDelegate {
        var seen: [(String, Location?)] = []
        func locationManager(_ manager: LocationManager, didEnterRegion region: CircularRegion) { seen.append(("enter", manager.location)) }
        func locationManager(_ manager: LocationManager, didExitRegion region: CircularRegion) { seen.append(("exit", manager.location)) }
    }

    @Test("with regions alone, manager.location in their callbacks is the fix that crossed, as CoreLocation's is")
    func locationDuringRegionCallbacks() async throws {
        let fixes = track([300, 150, 50, 0, 50, 150, 300])
        let harness = try Harness(fixes: fixes)
        let recorder = WhereDelegate()
        harness.manager.delegate = recorder
        let statuses = harness.manager.rx.didChangeReceiverStatus
        harness.manager.startMonitoring(for: region)
        _ = await statuses.firstMatching { $0.sourceState == .finished }
        #expect(recorder.seen.map(\.0) == ["enter", "exit"])
        #expect(recorder.seen.map { $0.1?.timestamp } == [fixes[2].time, fixes[5].time])
    }

    @Test func poorAccuracyNeedsADeeperFixAndUselessFixesDecideNothing() async throws {
        let fixes = [
            Fix.synthetic(at: .at(north: 200), second: 0, accuracy: 5),
            Fix.synthetic(at: .at(north: 0), second: 1, accuracy: 150),  // worse than the radius: ignored
            Fix.synthetic(at: .at(north: 70), second: 2, accuracy: 40),  // band 40: needs < 60 m
            Fix.synthetic(at: .at(north: 50), second: 3, accuracy: 40),  // deep enough
        ]
        let events = try await run(fixes)
        #expect(events == [.startedMonitoring("home"), .state(.outside, "home"), .state(.inside, "home"), .enter("home")])
    }

    @Test func notifyFlagsSuppressEntryButStatesAreStillDetermined() async throws {
        var quiet = region
        quiet.notifyOnEntry = false
        let harness = try Harness(fixes: track([300, 0, 300]))
        let statuses = harness.manager.rx.didChangeReceiverStatus
        harness.manager.startMonitoring(for: quiet)
        _ = await statuses.firstMatching { $0.sourceState == .finished }
        let interesting = Self.regionEvents(harness.delegate.events)
        #expect(interesting == [.startedMonitoring("home"), .state(.outside, "home"), .state(.inside, "home"),
                                .state(.outside, "home"), .exit("home")])
    }

    @Test func invalidRegionsFailToMonitor() throws {
        let harness = try Harness(fixes: [])
        let zero = CircularRegion(center: Harness.origin, radius: 0, identifier: "zero")
        let nan = CircularRegion(center: Harness.origin, radius: .nan, identifier: "nan")
        harness.manager.startMonitoring(for: zero)
        harness.manager.startMonitoring(for: nan)
        #expect(harness.manager.monitoredRegions.isEmpty)
        let failures = harness.delegate.events.compactMap { event -> String? in
            if case .monitoringFailed(let id, .regionMonitoringFailed) = event { return id }
            return nil
        }
        #expect(failures == ["zero", "nan"])
    }

    @Test func monitoringReplacesByIdentifierAndStops() throws {
        let harness = try Harness(fixes: [])
        harness.manager.startMonitoring(for: region)
        var bigger = region
        bigger.radius = 500
        harness.manager.startMonitoring(for: bigger)
        #expect(harness.manager.monitoredRegions == [bigger])
        harness.manager.stopMonitoring(for: region)
        #expect(harness.manager.monitoredRegions.isEmpty)
    }

    @Test func requestStateReportsUnknownThenTheTrackedState() async throws {
        let harness = try Harness(fixes: track([20]))
        let states = harness.manager.rx.didDetermineState
        harness.manager.requestState(for: region)
        harness.manager.startMonitoring(for: region)
        let received = await states.firstElements(2)
        #expect(received.map(\.state) == [.unknown, .inside])
        harness.manager.requestState(for: region)
        #expect(harness.delegate.events.last == .state(.inside, "home"))
    }

    @Test func deniedMonitoringFailsLoudly() async throws {
        let harness = try Harness({ _ in [] }, status: .denied)
        let failures = harness.manager.rx.monitoringDidFail
        harness.manager.startMonitoring(for: region)
        #expect(harness.delegate.events == [.monitoringFailed("home", .denied)])
        let failure = await failures.firstElements(1).first
        #expect(failure == MonitoringFailure(region: region, error: .denied))
        #expect(harness.manager.monitoredRegions.isEmpty)
    }
}
