import Foundation
import GeoTrackTesting
import GPSReports
import LocationKit
import Testing

/// Reduced (approximate) accuracy: stored with the decision, applied to each fix as it arrives,
/// and never leaking a precise coordinate through any of the manager's outputs.
@MainActor
@Suite(.timeLimit(.minutes(5)))
struct ApproximateAccessTests {
    /// A precise track heading east at 5 m/s, with altitude, speed and course.
    static func track(_ count: Int) -> [Fix] {
        (0..<count).map {
            Fix.synthetic(at: .at(north: 3, east: Double($0) * 5 + 0.7), second: Double($0),
                          accuracy: 4, altitude: 123.4, speed: 5, course: 90)
        }
    }

    /// Whether `location` is approximate: on the grid, its accuracy covering the snap, and
    /// nothing that places the device more precisely, in the location or in its fix.
    static func isApproximate(_ location: Location) -> Bool {
        let fix = location.fix
        return ApproximateLocation.isOnGrid(location.coordinate.latitude)
            && ApproximateLocation.isOnGrid(location.coordinate.longitude)
            && (location.horizontalAccuracy ?? 0) >= 1_000
            && location.altitude == nil && location.ellipsoidalAltitude == nil
            && location.speed == nil && location.course == nil && location.verticalAccuracy == nil
            && fix.latitude == location.coordinate.latitude && fix.longitude == location.coordinate.longitude
            && fix.altitudeMSL == nil && fix.altitudeHAE == nil && fix.speed == nil && fix.track == nil
            && fix.climb == nil && fix.epx == nil && fix.epy == nil && fix.epv == nil && fix.magneticTrack == nil
    }

    @Test("the store keeps the accuracy with a grant, and reads files written before accuracy existed as full")
    func storeRoundTrip() throws {
        let directory = try TemporaryDirectory()
        let store = AuthorizationStore(directory: directory.path, policyPath: directory.path + "/no-policy")
        try store.write(.authorizedAlways, accuracy: .reducedAccuracy)
        #expect(try store.readAuthorization() == StoredAuthorization(.authorizedAlways, accuracy: .reducedAccuracy))
        #expect(try String(contentsOfFile: store.path, encoding: .utf8) == "authorizedAlways reducedAccuracy\n")
        #expect(try store.read() == .authorizedAlways)
        try "authorizedWhenInUse\n".write(toFile: store.path, atomically: true, encoding: .utf8)
        #expect(try store.readAuthorization() == StoredAuthorization(.authorizedWhenInUse, accuracy: .fullAccuracy))
        // A refusal has no accuracy, and a second word must be one.
        try store.write(.denied, accuracy: .reducedAccuracy)
        #expect(try String(contentsOfFile: store.path, encoding: .utf8) == "denied\n")
        for text in ["denied reducedAccuracy\n", "authorizedAlways blurry\n", "authorizedAlways reducedAccuracy more\n"] {
            try text.write(toFile: store.path, atomically: true, encoding: .utf8)
            #expect(throws: LocationError.self) { try store.readAuthorization() }
        }
    }

    @Test("snapping: the nearest grid point, an accuracy covering the distance moved, and nothing else")
    func snapping() throws {
        for (latitude, longitude) in [(48.8566, 2.3522), (-33.86785, 151.20732), (69.9, -179.99), (0.0124, 0.0126)] {
            var fix = Fix.synthetic(at: try #require(Coordinate(latitude: latitude, longitude: longitude)),
                                    accuracy: 7, altitude: 50, speed: 3, course: 10)
            fix.climb = 0.5
            fix.epx = 3
            let reduced = ApproximateLocation.reduce(fix)
            let location = try #require(Location(fix: reduced))
            #expect(Self.isApproximate(location))
            let moved = try #require(Coordinate(latitude: latitude, longitude: longitude)).distance(to: location.coordinate)
            let accuracy = try #require(location.horizontalAccuracy)
            #expect(moved + 7 <= accuracy)
            let snapped = try #require(reduced.latitude)
            #expect(abs(snapped - latitude) <= ApproximateLocation.gridSpacing / 2)
            #expect(reduced.time == fix.time && reduced.mode == fix.mode && reduced.device == fix.device)
        }
        // A snapped value prints as the grid point itself.
        #expect("\(ApproximateLocation.snap(52.0251))" == "52.025")
    }

    @Test("under approximate access the delegate, rx streams, raw reports, live updates and one-shot requests see only the grid")
    func noPreciseCoordinateLeaks() async throws {
        let harness = try Harness(fixes: Self.track(12), accuracy: .reducedAccuracy)
        let manager = harness.manager
        #expect(manager.accuracyAuthorization == .reducedAccuracy)
        let located = manager.rx.didUpdateLocations
        let latest = manager.rx.location
        let reports = manager.rx.didReceiveReport
        let driver = manager.rx.headingDriver
        _ = driver
        let streamed = Task { await located.firstElements(12).flatMap { $0 } }
        let current = Task { await latest.firstElements(12) }
        let raw = Task { await reports.firstElements(12) }
        manager.startUpdatingHeading()
        manager.startUpdatingLocation()
        let delivered = await streamed.value
        #expect(delivered.count == 12)
        #expect(delivered.allSatisfy(Self.isApproximate))
        #expect(await current.value.allSatisfy(Self.isApproximate))
        #expect(harness.delegate.locations.count == 12)
        #expect(harness.delegate.locations.allSatisfy(Self.isApproximate))
        for report in await raw.value {
            guard case .fix(let fix) = report else { continue }
            let location = try #require(Location(fix: fix))
            #expect(Self.isApproximate(location))
            #expect(!fix.tpvJSON().contains("\"speed\"") && !fix.tpvJSON().contains("\"alt"))
        }
        // Course over ground is left out, so no heading is made from it.
        #expect(harness.delegate.headings.isEmpty)
        #expect(manager.latestReceivedLocation.map(Self.isApproximate) == true)
    }

    @Test("live updates say accuracyLimited, and the configuration's accuracy filter does not drop approximate locations")
    func liveUpdatesAreLimited() async throws {
        let harness = try Harness(fixes: Self.track(6), accuracy: .reducedAccuracy)
        var seen: [LocationUpdate] = []
        for await update in LocationUpdate.liveUpdates(.automotiveNavigation, from: harness.manager) where update.location != nil {
            seen.append(update)
            if seen.count == 3 { break }
        }
        #expect(seen.count == 3)
        #expect(seen.allSatisfy { $0.accuracyLimited && $0.location.map(Self.isApproximate) == true })
    }

    @Test("a one-shot request answers with an approximate location")
    func oneShotIsApproximate() async throws {
        let harness = try Harness(fixes: Self.track(3), accuracy: .reducedAccuracy)
        let location = try await harness.manager.rx.requestLocation()
        #expect(Self.isApproximate(location))
    }

    @Test("a region smaller than the approximate accuracy is never decided, as iOS does not monitor it")
    func smallRegionsStayUnknown() async throws {
        let harness = try Harness(fixes: Self.track(6), accuracy: .reducedAccuracy)
        let region = CircularRegion(center: .at(north: 0), radius: 100, identifier: "here")
        let locations = harness.manager.rx.didUpdateLocations
        harness.manager.startMonitoring(for: region)
        harness.manager.startUpdatingLocation()
        _ = await locations.firstElements(6)
        #expect(!harness.delegate.events.contains { if case .state = $0 { true } else { false } })
        let states = harness.manager.rx.didDetermineState
        let asked = Task { await states.firstElements(1) }
        harness.manager.requestState(for: CircularRegion(center: .at(north: 0), radius: 50, identifier: "other"))
        #expect(await asked.value.first?.state == .unknown)
    }

    @Test("a temporary full-accuracy request the user allows makes later fixes precise, for this manager only")
    func temporaryFullAccuracy() async throws {
        let prompter = ScriptedAuthorizationPrompter(fullAccuracy: true)
        let harness = try Harness({ _ in [.state(.receiverPresent)] + Self.track(4).map { .fix($0) } },
                                  accuracy: .reducedAccuracy, prompter: prompter)
        try await harness.manager.requestTemporaryFullAccuracyAuthorization(purpose: "turn-by-turn")
        #expect(prompter.fullAccuracyPurposes == ["turn-by-turn"])
        #expect(harness.manager.accuracyAuthorization == .fullAccuracy)
        #expect(harness.delegate.events.contains(.authorization(.authorizedWhenInUse)))
        let location = try await harness.manager.rx.requestLocation()
        #expect(!Self.isApproximate(location))
        #expect(location.speed == 5)
        // Never stored: the next manager on the same store is approximate again.
        #expect(try harness.store.readAuthorization().accuracy == .reducedAccuracy)
        let next = LocationManager(source: ScriptedLocationSource([], clock: ManualClock()), authorizationStore: harness.store)
        #expect(next.accuracyAuthorization == .reducedAccuracy)
    }

    @Test("a refused temporary request keeps accuracy reduced; without access it throws; with full accuracy it does not ask")
    func temporaryFullAccuracyRefusedOrNeedless() async throws {
        let refusing = ScriptedAuthorizationPrompter(fullAccuracy: false)
        let reduced = try Harness({ _ in [] }, accuracy: .reducedAccuracy, prompter: refusing)
        try await reduced.manager.requestTemporaryFullAccuracyAuthorization(purpose: "why")
        #expect(reduced.manager.accuracyAuthorization == .reducedAccuracy)

        let denied = try Harness({ _ in [] }, status: .denied, prompter: refusing)
        await #expect(throws: LocationError.denied) {
            try await denied.manager.requestTemporaryFullAccuracyAuthorization(purpose: "why")
        }

        let asked = ScriptedAuthorizationPrompter(fullAccuracy: true)
        let full = try Harness({ _ in [] }, prompter: asked)
        try await full.manager.requestTemporaryFullAccuracyAuthorization(purpose: "why")
        #expect(asked.fullAccuracyPurposes.isEmpty)
    }

    @Test("an approximate answer at the prompt is stored and applies at once")
    func approximateAnswerAtThePrompt() async throws {
        let prompter = ScriptedAuthorizationPrompter(answering: .grantedApproximate)
        let harness = try Harness({ _ in [.state(.receiverPresent)] + Self.track(3).map { .fix($0) } },
                                  status: nil, prompter: prompter)
        try await harness.manager.requestAuthorization()
        #expect(harness.manager.accuracyAuthorization == .reducedAccuracy)
        #expect(try harness.store.readAuthorization() == StoredAuthorization(.authorizedWhenInUse, accuracy: .reducedAccuracy))
        #expect(Self.isApproximate(try await harness.manager.rx.requestLocation()))
    }

    @Test("a change of accuracy in the store reaches a running manager, its delegate and a service session")
    func storeChangeReachesTheManager() async throws {
        let store = AuthorizationStore.inMemory(.authorizedAlways)
        let manager = LocationManager(source: ScriptedLocationSource([], clock: ManualClock()), authorizationStore: store)
        let delegate = RecordingLocationDelegate()
        manager.delegate = delegate
        let session = ServiceSession(authorization: .whenInUse, manager: manager)
        let diagnostics = session.diagnostics
        let seen = Task { await diagnostics.firstElements(2) }
        try store.write(.authorizedAlways, accuracy: .reducedAccuracy)
        let both = await seen.value
        #expect(both.map(\.fullAccuracyDenied) == [false, true])
        #expect(both.allSatisfy { diagnostic in !diagnostic.isBlocking })
        #expect(manager.accuracyAuthorization == .reducedAccuracy)
        // Once when the manager was made, once for the change of accuracy.
        #expect(delegate.events == [.authorization(.authorizedAlways), .authorization(.authorizedAlways)])
    }
}
