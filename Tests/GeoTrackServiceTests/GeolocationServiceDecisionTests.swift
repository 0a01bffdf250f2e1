import Foundation
import GeoTrackService
import GeoTrackTesting
import GPSReports
import LocationKit
import Testing

/// The service is the one place that decides what is shown: the heading beside a fix, the
/// events and their times, and the order outputs hear of them.
@MainActor
@Suite struct GeolocationServiceDecisionTests {
    static let origin = ServiceHarness.origin
    static let away = Coordinate(latitude: 59.3393, longitude: 18.0686) ?? origin

    /// The updates the service gives one observer until the scripted source ends.
    static func updates(_ steps: [ScriptedLocationSource.Step], configure: (LocationManager) -> Void = { _ in })
        async throws -> (service: GeolocationService, updates: [TrackingUpdate]) {
        let harness = try ServiceHarness(status: .authorizedAlways) { _ in steps + [.state(.finished)] }
        configure(harness.manager)
        let service = GeolocationService(manager: harness.manager, startsUpdates: false,
                                         now: { Date(timeIntervalSince1970: 42) })
        let (ended, done) = AsyncStream.makeStream(of: Void.self)
        var seen: [TrackingUpdate] = []
        let observation = service.observe { update in
            seen.append(update)
            if case .status(.finished) = update { done.yield() }
        }
        service.start()
        _ = await ended.firstElements(1)
        observation.cancel()
        return (service, seen)
    }

    static func fixes(_ updates: [TrackingUpdate]) -> [(Location, Heading?)] {
        updates.compactMap { if case .status(.fix(let location, let heading)) = $0 { (location, heading) } else { nil } }
    }

    @Test("the course is shown only with its own fix and only while moving; a standing receiver shows none")
    func courseHeading() async throws {
        let moving = Fix.synthetic(at: Self.origin, second: 0, speed: 3, course: 90)
        let stopped = Fix.synthetic(at: Self.origin, second: 1, speed: 0.2, course: 271)
        let (_, updates) = try await Self.updates([.state(.receiverPresent), .fix(moving), .fix(stopped)])
        let shown = Self.fixes(updates)
        #expect(shown.count == 2)
        #expect(shown.first?.1?.trueHeading == 90 && shown.first?.1?.source == .courseOverGround)
        // Standing still: the old course (90) is not the heading of this fix, and its own course is noise.
        #expect(shown.last?.0.timestamp == stopped.time)
        #expect(shown.last?.1 == nil)
    }

    @Test("two reports of one cycle: the one without speed and course does not erase them; the next cycle's does")
    func oneCycleTwoReports() async throws {
        // gpsd with two receivers' sentences, or a receiver whose cycle ends in two TPVs: one
        // with the velocity, then one of the same fix time without it.
        let withVelocity = Fix.synthetic(at: Self.origin, second: 0, speed: 11.44, course: 90)
        var withoutVelocity = Fix.synthetic(at: Self.origin, second: 0)
        withoutVelocity.eph = 4
        let nextCycle = Fix.synthetic(at: Self.origin, second: 1)
        let (_, updates) = try await Self.updates([.state(.receiverPresent), .fix(withVelocity), .fix(withoutVelocity),
                                                         .fix(nextCycle)])
        let shown = Self.fixes(updates)
        #expect(shown.count == 3)
        guard shown.count == 3 else { return }
        for (location, heading) in shown.prefix(2) {
            #expect(location.speed == 11.44)
            #expect(location.course == 90)
            #expect(heading?.trueHeading == 90 && heading?.source == .courseOverGround)
        }
        // What the second report did bring is shown: its own accuracy.
        #expect(shown[1].0.horizontalAccuracy == 4)
        // The report stays as it came, for outputs in gpsd's format.
        #expect(shown[1].0.fix.speed == nil)
        // A new cycle without velocity shows none: the rule holds only within one fix time.
        #expect(shown[2].0.speed == nil && shown[2].0.course == nil && shown[2].1 == nil)
        // Every output hears the same: the locations the service sends are the ones shown.
        let sent = updates.compactMap { if case .location(let location) = $0 { location } else { nil } }
        #expect(sent.map(\.speed) == [11.44, 11.44, nil])
    }

    @Test("within one cycle a report's own measured velocity wins; a speed without a course (gpsd's derived one) does not replace the cycle's")
    func oneCycleOwnValues() async throws {
        let first = Fix.synthetic(at: Self.origin, second: 0, speed: 11.44, course: 90)
        let derived = Fix.synthetic(at: Self.origin, second: 0, speed: 12)
        let measured = Fix.synthetic(at: Self.origin, second: 0, speed: 3, course: 92)
        let (_, updates) = try await Self.updates([.state(.receiverPresent), .fix(first), .fix(derived), .fix(measured)])
        let shown = Self.fixes(updates)
        #expect(shown.map(\.0.speed) == [11.44, 11.44, 3])
        #expect(shown.map(\.0.course) == [90, 90, 92])
        #expect(shown.map { $0.1?.trueHeading } == [90, 90, 92])
        // The outputs get the same; the report in gpsd's format keeps its own speed.
        let sent = updates.compactMap { if case .location(let location) = $0 { location } else { nil } }
        #expect(sent.map(\.speed) == [11.44, 11.44, 3])
        #expect(sent[1].fix.speed == 12)
    }

    @Test("a cycle that starts with gpsd's derived speed (GGA) and ends with the receiver's (RMC) shows the measured speed and the heading steadily")
    func derivedThenMeasured() async throws {
        // haicom-305N's cycles: a GGA report whose speed gpsd derived from positions ±400 m off
        // (41.2 km/h, no course), then the RMC's own 0.9 to 3.6 km/h with its course.
        var steps: [ScriptedLocationSource.Step] = [.state(.receiverPresent)]
        for second in 0..<6 {
            var derived = Fix.synthetic(at: Self.origin.offset(north: Double(second) * 2, east: 0), second: Double(second),
                                        accuracy: 400, speed: 11.448)
            derived.track = nil
            steps.append(.fix(derived))
            steps.append(.fix(Fix.synthetic(at: Self.origin.offset(north: Double(second) * 2, east: 0), second: Double(second),
                                            accuracy: 400, speed: 2 + Double(second) * 0.01, course: 10)))
        }
        let (_, updates) = try await Self.updates(steps)
        let shown = Self.fixes(updates)
        #expect(shown.count == 12)
        // The first GGA has no measured velocity before it; from then on every line shows the
        // receiver's own speed (this cycle's or the one a second before) and its heading.
        for (index, (location, heading)) in shown.enumerated().dropFirst() {
            #expect((location.speed ?? 0) < 3, "line \(index): \(String(describing: location.speed))")
            #expect(heading?.trueHeading == 10, "line \(index)")
        }
        // The outputs get the locations as sent: the statistics and gpsd's format see the GGA's
        // own report, not a speed carried over from an earlier fix.
        let sent = updates.compactMap { if case .location(let location) = $0 { location } else { nil } }
        #expect(sent.count == 12)
        #expect(sent[2].speed == 11.448 && sent[2].course == nil)
    }

    @Test("a measured velocity is kept for the status only while the manager believes a reading that old")
    func measuredVelocityAges() async throws {
        var derived = Fix.synthetic(at: Self.origin, second: 30, speed: 11.448)
        derived.track = nil
        let (_, updates) = try await Self.updates([.state(.receiverPresent),
                                                    .fix(Fix.synthetic(at: Self.origin, second: 0, speed: 2, course: 10)),
                                                    .fix(derived)])
        let last = try #require(Self.fixes(updates).last)
        #expect(last.0.speed == 11.448 && last.0.course == nil)
    }

    @Test("a course within the manager's heading filter of the last one delivered is still the heading shown with its fix")
    func headingFilterDoesNotHideTheCourse() async throws {
        var steps: [ScriptedLocationSource.Step] = [.state(.receiverPresent)]
        for second in 0..<5 {
            steps.append(.fix(Fix.synthetic(at: Self.origin.offset(north: Double(second) * 3, east: 0), second: Double(second),
                                            speed: 3, course: 78 + Double(second) * 0.1)))
        }
        let (_, updates) = try await Self.updates(steps) { $0.headingFilter = 1 }
        let shown = Self.fixes(updates)
        #expect(shown.count == 5)
        #expect(shown.allSatisfy { $0.1 != nil && $0.1?.trueHeading == $0.0.course }, "\(shown.map { $0.1?.trueHeading })")
    }

    @Test("a heading sensor wins while current (the manager's 5 s), and is dropped once older")
    func sensorHeading() async throws {
        let start = Date(timeIntervalSince1970: 1_735_689_600)
        let steps: [ScriptedLocationSource.Step] = [
            .state(.receiverPresent),
            .event(.report(.attitude(Attitude(time: start, heading: 200)))),
            .fix(.synthetic(at: Self.origin, second: 1, speed: 3, course: 90)),
            .fix(.synthetic(at: Self.origin, second: 7, speed: 3, course: 95)),
        ]
        let (_, updates) = try await Self.updates(steps)
        let shown = Self.fixes(updates).map { $0.1 }
        #expect(shown.first??.trueHeading == 200)
        #expect(shown.first??.source == .sensor("ATT") || shown.first??.source == .sensor(nil))
        // Six seconds after the sensor's reading: its heading is stale; the course of this fix is shown.
        #expect(shown.last??.trueHeading == 95 && shown.last??.source == .courseOverGround)
    }

    @Test("region events carry the time of the fix that caused them, and follow that fix's report")
    func regionEventTimes() async throws {
        let steps: [ScriptedLocationSource.Step] = [
            .state(.receiverPresent),
            .fix(.synthetic(at: Self.away, second: 0)),
            .fix(.synthetic(at: Self.origin, second: 30)),
            .fix(.synthetic(at: Self.away, second: 90)),
        ]
        let (_, updates) = try await Self.updates(steps) { manager in
            manager.startMonitoring(for: CircularRegion(center: Self.origin, radius: 100, identifier: "home"))
        }
        let events = updates.compactMap { if case .event(let event) = $0 { event } else { nil } }
        #expect(events.map(\.kind) == [.regionEntered("home"), .regionExited("home")])
        #expect(events.map(\.time) == [Date(timeIntervalSince1970: 1_735_689_630), Date(timeIntervalSince1970: 1_735_689_690)])
        // Each carries the fix that crossed: its own place and time, for a transition message.
        #expect(events.map { $0.location?.coordinate } == [Self.origin, Self.away])
        #expect(events.map { $0.location?.timestamp } == events.map(\.time))
        // The order outputs hear: the report as sent, the event it caused, the status, the location.
        let entered = try #require(updates.firstIndex { if case .event = $0 { true } else { false } })
        guard case .report(.fix(let fix)) = updates[entered - 1] else {
            Issue.record("the event does not follow its fix's report: \(updates[entered - 1])")
            return
        }
        #expect(fix.time == Date(timeIntervalSince1970: 1_735_689_630))
        #expect(updates.dropFirst(entered + 1).contains { if case .location(let location) = $0 { location.timestamp == fix.time } else { false } })
    }

    @Test("a lost connection and its return are events dated by the service's clock; access changes too")
    func connectionEvents() async throws {
        let refused = SourceError.connectionRefused(host: "localhost", port: 2947)
        let steps: [ScriptedLocationSource.Step] = [
            .state(.connected), .state(.receiverPresent), .state(.disconnected(refused)), .state(.retrying(after: .seconds(1))),
            .state(.disconnected(refused)), .state(.connected), .state(.receiverPresent),
        ]
        let (_, updates) = try await Self.updates(steps)
        let events = updates.compactMap { if case .event(let event) = $0 { event } else { nil } }
        #expect(events == [TrackingEvent(.disconnected(refused), at: Date(timeIntervalSince1970: 42)),
                           TrackingEvent(.reconnected, at: Date(timeIntervalSince1970: 42))])
        let statuses = updates.compactMap { if case .status(let status) = $0 { status } else { nil } }
        #expect(statuses.contains(.unreachable(refused, retryingIn: .seconds(1))))
        #expect(statuses.last == .finished)
    }

    @Test("every TPV goes to the outputs as it was sent, positions or not, while access is granted")
    func reportsAsSent() async throws {
        var noFix = Fix(mode: .noFix, time: Date(timeIntervalSince1970: 1_735_689_600))
        noFix.device = "/dev/ttyTEST"
        let position = Fix.synthetic(at: Self.origin, second: 1)
        let (_, updates) = try await Self.updates([.state(.receiverPresent), .fix(noFix), .fix(position)])
        let reports = updates.compactMap { if case .report(.fix(let fix)) = $0 { fix } else { nil } }
        #expect(reports == [noFix, position])
        let locations = updates.compactMap { if case .location(let location) = $0 { location } else { nil } }
        #expect(locations.map(\.fix) == [position])
    }
}
