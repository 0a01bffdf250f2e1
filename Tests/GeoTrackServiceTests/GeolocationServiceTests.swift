import Foundation
import GeoTrackService
import GeoTrackTesting
import GPSReports
import LocationKit
import Logging
import Testing

@MainActor
struct ServiceHarness {
    let directory: TemporaryDirectory
    let store: AuthorizationStore
    let clock = ManualClock()
    let manager: LocationManager

    nonisolated static let origin = Coordinate(latitude: 59.3293, longitude: 18.0686) ?? Coordinate(latitude: 0, longitude: 0)!

    init(status: AuthorizationStatus?, accuracy: AccuracyAuthorization = .fullAccuracy,
         prompter: (any AuthorizationPrompter)? = nil, policy: String? = nil,
         _ steps: (ManualClock) -> [ScriptedLocationSource.Step]) throws {
        directory = try TemporaryDirectory()
        store = AuthorizationStore(directory: directory.path, policyPath: directory.path + "/policy")
        if let policy { try policy.write(toFile: store.policyPath, atomically: true, encoding: .utf8) }
        if let status { try store.write(status, accuracy: accuracy) }
        manager = LocationManager(source: ScriptedLocationSource(steps(clock), clock: clock), clock: clock,
                                  authorizationStore: store, prompter: prompter, logger: Logger(label: "test"))
    }
}

func sky(seen: Int, used: Int) -> ScriptedLocationSource.Step {
    let satellites = (0..<seen).map { Satellite(prn: $0 + 1, signalStrength: 30, used: $0 < used) }
    return .event(.report(.sky(SkyView(satellites: satellites))))
}

@MainActor
@Suite struct GeolocationServiceTests {
    @Test("under approximate access every Driver carries grid positions only, and no course becomes a heading")
    func approximateDrivers() async throws {
        let fixes = (0..<5).map { second in
            Fix.synthetic(at: ServiceHarness.origin.offset(north: 7, east: Double(second) * 6 + 0.3), second: Double(second),
                          accuracy: 4, altitude: 20, speed: 6, course: 90)
        }
        let harness = try ServiceHarness(status: .authorizedWhenInUse, accuracy: .reducedAccuracy) { _ in
            [.state(.connected), .state(.receiverPresent)] + fixes.map { .fix($0) } + [.wait(.seconds(3600))]
        }
        let service = GeolocationService(manager: harness.manager)
        let coordinates = await service.location.firstElements(1)
        let latest = try #require(await service.latestLocation.firstElements(1).first)
        let shown = await service.status.firstMatching { if case .fix = $0 { true } else { false } }
        #expect(coordinates.allSatisfy { ApproximateLocation.isOnGrid($0.latitude) && ApproximateLocation.isOnGrid($0.longitude) })
        #expect(coordinates.first != ServiceHarness.origin.offset(north: 7, east: 0.3))
        #expect(ApproximateLocation.isOnGrid(latest.coordinate.latitude) && latest.speed == nil && latest.altitude == nil)
        guard case .fix(let location, let heading)? = shown else {
            Issue.record("no fix status: \(String(describing: shown))")
            return
        }
        #expect(ApproximateLocation.isOnGrid(location.coordinate.longitude) && (location.horizontalAccuracy ?? 0) > 1_000)
        #expect(heading == nil)
        #expect(service.shownHeading(for: location) == nil)
    }

    @Test func startsByItselfAndReachesAFix() async throws {
        let fix = Fix.synthetic(at: ServiceHarness.origin, second: 0, accuracy: 4, altitude: 20, speed: 3, course: 90)
        let harness = try ServiceHarness(status: .authorizedWhenInUse) { _ in
            [.state(.connected), .state(.receiverPresent), sky(seen: 9, used: 0), .wait(.seconds(1)),
             sky(seen: 9, used: 7), .fix(fix), .wait(.seconds(3600))]
        }
        let service = GeolocationService(manager: harness.manager)
        let searching = await service.status.firstMatching { if case .searching(9, 0) = $0 { true } else { false } }
        #expect(searching != nil)
        await harness.clock.sleepers(atLeast: 1)
        harness.clock.advance(by: .seconds(1))
        let fixed = await service.status.firstMatching { if case .fix = $0 { true } else { false } }
        guard case .fix(let location, let shownHeading) = fixed else {
            Issue.record("no fix status")
            return
        }
        #expect(location.gnss.fixMode == .threeD)
        // Moving at 3 m/s: the fix's own course is the heading shown with it.
        #expect(shownHeading?.trueHeading == 90 && shownHeading?.source == .courseOverGround)
        #expect(location.coordinate == ServiceHarness.origin)
        #expect(await service.location.firstElements(1) == [ServiceHarness.origin])
        let latest = try #require(await service.latestLocation.firstElements(1).first)
        #expect(latest.horizontalAccuracy == 4)
        #expect(latest.altitude == 20)
        #expect(latest.speed == 3)
        #expect(latest.gnss.satellitesUsed == 7)
        #expect(latest.timestamp == Date(timeIntervalSince1970: 1_735_689_600))
        let heading = try #require(await service.heading.firstElements(1).first)
        #expect(heading.trueHeading == 90 && heading.source == .courseOverGround)
        #expect(await service.authorized.firstElements(1) == [true])
    }

    @Test(.timeLimit(.minutes(5)))
    func waitsForAuthorizationThenFollowsAnOutsideGrant() async throws {
        let harness = try ServiceHarness(status: nil) { _ in
            [.state(.receiverPresent), .fix(.synthetic(at: ServiceHarness.origin, second: 0))]
        }
        let service = GeolocationService(manager: harness.manager)
        #expect(await service.status.firstElements(1) == [.waitingForAuthorization])
        #expect(await service.authorized.firstElements(1) == [false])
        let authorizedStream = service.authorized.subscribe()
        try AuthorizationStore(directory: harness.store.directory, policyPath: harness.store.policyPath).write(.authorizedAlways)
        #expect(await authorizedStream.firstElements(2) == [false, true])
        let fixed = await service.status.firstMatching { if case .fix = $0 { true } else { false } }
        #expect(fixed != nil)
    }

    @Test func deniedIsAStatusNotSilence() async throws {
        let harness = try ServiceHarness(status: nil, prompter: ScriptedAuthorizationPrompter(answering: .denied)) { _ in [] }
        let service = GeolocationService(manager: harness.manager)
        let denied = await service.status.firstMatching { $0 == .denied }
        #expect(denied == .denied)
        #expect(denied?.description.contains("geotrack auth grant") == true)
        #expect(await service.authorized.firstMatching { !$0 } == false)
    }

    @Test func gpsdUnreachableShowsTheRetryDelay() async throws {
        let harness = try ServiceHarness(status: .authorizedWhenInUse) { _ in
            [.state(.connecting), .state(.disconnected(.connectionRefused(host: "localhost", port: 2947))),
             .state(.retrying(after: .seconds(4))), .wait(.seconds(3600))]
        }
        let service = GeolocationService(manager: harness.manager)
        let refused = SourceError.connectionRefused(host: "localhost", port: 2947)
        let status = await service.status.firstMatching { $0 == .unreachable(refused, retryingIn: .seconds(4)) }
        #expect(status?.description == "gpsd unreachable, retrying in 4s: \(refused.message)")
    }

    @Test func noReceiverAndStale() async throws {
        let harness = try ServiceHarness(status: .authorizedWhenInUse) { _ in
            [.state(.receiverAbsent), .wait(.seconds(1)), .state(.receiverPresent),
             .fix(.synthetic(at: ServiceHarness.origin, second: 0)), .wait(.seconds(1)), .state(.stale), .wait(.seconds(3600))]
        }
        let service = GeolocationService(manager: harness.manager)
        let statuses = service.status.subscribe()
        let seen = Task {
            var received: [TrackingStatus] = []
            for await status in statuses {
                received.append(status)
                if case .stale = status { break }
            }
            return received
        }
        await harness.clock.sleepers(atLeast: 1)
        harness.clock.advance(by: .seconds(1))
        await harness.clock.sleepers(atLeast: 1)
        harness.clock.advance(by: .seconds(1))
        // Transient states (searching before the receiver reports) may come between; the order may not change.
        let kinds = await seen.value.map { status -> String in
            switch status {
            case .noReceiver: "N"
            case .fix: "F"
            case .stale: "S"
            default: "."
            }
        }.filter { $0 != "." }
        #expect(kinds == ["N", "F", "S"])
        // The location driver never presents the stale position as current: nothing new after the fix.
        #expect(harness.manager.location?.isStale == true)
    }

    @Test("a position that stopped holding is not handed to a later consumer: stale source, then withdrawn access")
    func positionsThatNoLongerHoldAreForgotten() async throws {
        let harness = try ServiceHarness(status: .authorizedWhenInUse) { _ in
            [.state(.receiverPresent), .fix(.synthetic(at: ServiceHarness.origin, second: 0)), .state(.stale), .wait(.seconds(3600))]
        }
        let service = GeolocationService(manager: harness.manager)
        let held = service.location.subscribe()
        #expect(await held.firstElements(1) == [ServiceHarness.origin])
        _ = await service.status.firstMatching { if case .stale = $0 { true } else { false } }
        #expect(service.location.latest == nil)
        // The latest delivered location is still there (it says it is the latest, not current)…
        #expect(service.latestLocation.latest?.coordinate == ServiceHarness.origin)
        // …until access is withdrawn.
        try harness.store.write(.denied)
        _ = await service.authorized.firstMatching { !$0 }
        #expect(service.latestLocation.latest == nil)
        #expect(service.location.latest == nil)
    }

    @Test("starting the service while access is denied or restricted says so once, not once for locations and again for headings")
    func refusalIsSaidOnce() async throws {
        for status in [AuthorizationStatus.denied, .restricted] {
            let harness = try ServiceHarness(status: status == .denied ? .denied : .authorizedWhenInUse,
                                             policy: status == .restricted ? "deny\n" : nil) { _ in
                [.state(.receiverPresent), .wait(.seconds(3600))]
            }
            #expect(harness.manager.authorizationStatus == status)
            let service = GeolocationService(manager: harness.manager, startsUpdates: false)
            var errors: [LocationError] = []
            let observation = harness.manager.rx.delegate.observe(.didFailWithError) { errors.append($0) }
            service.start()
            #expect(errors.count == 1, "\(status): \(errors)")
            // Stopped and started again: a new attempt, refused again.
            service.stop()
            service.start()
            #expect(errors.count == 2, "\(status): \(errors)")
            observation.cancel()
        }
    }

    @Test func driversShareTheirUpstreamAndReplayTheLatest() async throws {
        let harness = try ServiceHarness(status: .authorizedWhenInUse) { _ in
            [.state(.receiverPresent), .fix(.synthetic(at: ServiceHarness.origin, second: 0)), .wait(.seconds(3600))]
        }
        let service = GeolocationService(manager: harness.manager)
        let first = service.location.subscribe()
        let second = service.location.subscribe()
        #expect(service.location.consumerCount == 2)
        #expect(await first.firstElements(1) == [ServiceHarness.origin])
        #expect(await second.firstElements(1) == [ServiceHarness.origin])
        // Late: the latest coordinate at once.
        #expect(await service.location.firstElements(1) == [ServiceHarness.origin])
        // One upstream subscription to the manager's location stream serves all consumers.
        #expect(service.location.isConnected)
    }
}
