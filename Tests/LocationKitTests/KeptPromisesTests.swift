import Foundation
import GeoTrackKit
import GeoTrackTesting
import Synchronization
import Testing

/// "LocationKit keeps every promise it documents": what an iOS developer tries with
/// `import GeoTrackKit` alone: a slow loop over a long replay, a receiver at rest with ordinary
/// accuracy, a relaunched monitor, and access reduced while the program runs.
@MainActor
@Suite(.timeLimit(.minutes(5)))
struct KeptPromisesTests {
    // MARK: Logs

    /// Writes a log of `count` fixes (see `SyntheticLog`) and returns the times of the fixes a
    /// replay of it reports, read from the replay itself: it reports none for a log's first
    /// cycle, so the log has one cycle more.
    static func writeReplay(_ count: Int, to path: String) async throws -> [Date] {
        try SyntheticLog.writeNMEA(cycles: count + 1, to: path)
        var times: [Date] = []
        for await event in Replay(path: path).events() {
            if case .report(.fix(let fix)) = event, fix.coordinate != nil, let time = fix.time { times.append(time) }
        }
        return times
    }

    /// A manager over a replay of `fixes` fixes (``writeReplay(_:to:)``), access granted, not
    /// started; the folder holding the log, and the fix times the replay reports.
    static func replayManager(fixes: Int) async throws -> (TemporaryDirectory, [Date], LocationManager) {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/long.nmea"
        let times = try await writeReplay(fixes, to: path)
        return (directory, times, LocationManager(source: Replay(path: path), authorizationStore: .inMemory(.authorizedWhenInUse)))
    }

    /// Waits until `condition` holds; the suite's time limit guards against a hang.
    static func waitUntil(_ condition: () -> Bool) async throws {
        while !condition() { try await Task.sleep(for: .milliseconds(1)) }
    }

    // MARK: Back-pressure

    @Test("liveUpdates over a 1 500-fix replay, with a loop awaiting 1 ms per location, receives all 1 500 in order, five runs in a row")
    func slowLoopOverALongReplay() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/long.nmea"
        let times = try await Self.writeReplay(1_500, to: path)
        #expect(times.count == 1_500)
        for run in 1...5 {
            let manager = LocationManager(source: Replay(path: path), authorizationStore: .inMemory(.authorizedWhenInUse))
            var received: [Date] = []
            var dropped = 0
            for await update in LocationUpdate.liveUpdates(from: manager) {
                dropped += update.droppedUpdates
                guard let location = update.location else { continue }
                received.append(location.timestamp)
                // Work the loop awaits, as an app saving each location would.
                try await Task.sleep(for: .milliseconds(1))
            }
            #expect(received.count == 1_500, "run \(run)")
            // Compared as a whole, but not printed as one: a failure names the first difference.
            let firstDifference = received.indices.first { $0 >= times.count || received[$0] != times[$0] }
            #expect(received == times, "run \(run): first difference at \(String(describing: firstDifference))")
            #expect(dropped == 0, "run \(run)")
        }
    }

    @Test("over a replay, a Driver consumer that does nothing but count gets every location: the service's drivers buffer what the proxy's streams do")
    func driverConsumersKeepUpWithAReplay() async throws {
        let (directory, times, manager) = try await Self.replayManager(fixes: 400)
        defer { withExtendedLifetime(directory) {} }
        let service = GeolocationService(manager: manager, startsUpdates: false)
        var coordinates = 0
        var locations = 0
        let counting = [service.location.drive { _ in coordinates += 1 }, service.latestLocation.drive { _ in locations += 1 }]
        service.start()
        _ = await service.status.firstMatching { $0.hasEnded }
        try await Self.waitUntil { locations >= times.count && coordinates >= times.count }
        #expect(coordinates == times.count && locations == times.count)
        #expect(service.location.droppedCount == 0 && service.latestLocation.droppedCount == 0)
        for task in counting { task.cancel() }
    }

    @Test("two loops over one rx stream each get every location: a second iterator subscribes anew, it does not split the first's buffer")
    func twoLoopsOverOneStream() async throws {
        let (directory, times, manager) = try await Self.replayManager(fixes: 150)
        defer { withExtendedLifetime(directory) {} }
        let locations = manager.rx.location
        let loop = { @MainActor @Sendable () async -> Int in
            var seen = 0
            for await location in locations {
                seen += 1
                if location.timestamp == times.last { break }
            }
            return seen
        }
        // Both iterators exist before the replay starts.
        let first = Task { @MainActor in await loop() }
        let second = Task { @MainActor in await loop() }
        await Task.yield()
        try await Self.waitUntil { manager.rx.delegate.subscriberCount(for: .location) == 2 }
        manager.startUpdatingLocation()
        #expect(await first.value == times.count)
        #expect(await second.value == times.count)
    }

    @Test("every configuration's loop, and an rx.location consumer, each slower than the replay, get every location")
    func slowStreamsOverALongReplay() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/long.nmea"
        let times = try await Self.writeReplay(600, to: path)
        #expect(times.count == 600)
        let manager = LocationManager(source: Replay(path: path), authorizationStore: .inMemory(.authorizedWhenInUse))
        let locations = manager.rx.location
        let batches = manager.rx.didUpdateLocations
        let streamed = Task { @MainActor in
            var seen: [Date] = []
            for await location in locations {
                seen.append(location.timestamp)
                try await Task.sleep(for: .milliseconds(1))
                if location.timestamp == times.last { break }
            }
            return seen
        }
        let batched = Task { @MainActor in
            var seen: [Date] = []
            for await batch in batches {
                seen += batch.map(\.timestamp)
                try await Task.sleep(for: .milliseconds(2))
                if seen.last == times.last { break }
            }
            return seen
        }
        manager.startUpdatingLocation()
        var live: [Date] = []
        for await update in LocationUpdate.liveUpdates(.automotiveNavigation, from: manager) {
            guard let location = update.location else { continue }
            live.append(location.timestamp)
            try await Task.sleep(for: .milliseconds(1))
        }
        #expect(live.count == times.count && live == times)
        let streamedTimes = try await streamed.value
        #expect(streamedTimes.count == times.count && streamedTimes == times)
        let batchedTimes = try await batched.value
        #expect(batchedTimes.count == times.count && batchedTimes == times)
        #expect(manager.rx.delegate.droppedEventCount == 0)
    }

    @Test("a manager let go while its replay waits for a stream nobody reads goes away, and the stream ends")
    func managerGoesWhileItsReplayWaits() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/long.nmea"
        try SyntheticLog.writeNMEA(cycles: 601, to: path)
        weak var released: LocationManager?
        var kept: EventStream<Location>?
        do {
            let manager = LocationManager(source: Replay(path: path), authorizationStore: .inMemory(.authorizedWhenInUse))
            released = manager
            kept = manager.rx.location
            manager.startUpdatingLocation()
            // The replay is held up by the stream nobody reads.
            try await Self.waitUntil { manager.rx.delegate.needsRoom }
        }
        try await Self.waitUntil { released == nil }
        let stream = try #require(kept)
        var count = 0
        for await _ in stream { count += 1 }
        // What was buffered when the replay paused, never more than the stream's buffer, and the end.
        #expect(count >= 64 && count <= 128)
    }

    @Test("a live receiver cannot wait: a loop that falls behind loses the oldest updates, and the next update says how many")
    func liveDropsAreReported() async throws {
        let fixes = (0..<400).map { Fix.synthetic(at: .at(north: Double($0) * 100), second: Double($0)) }
        let harness = try Harness(fixes: fixes)
        var iterator = LocationUpdate.liveUpdates(from: harness.manager).makeAsyncIterator()
        var received: [Date] = []
        var reports: [Int] = []
        func take(_ update: LocationUpdate) {
            if update.droppedUpdates > 0 { reports.append(update.droppedUpdates) }
            if let time = update.location?.timestamp { received.append(time) }
        }
        if let first = await iterator.next() { take(first) }
        // The scripted receiver goes on without the loop: wait until it has said everything.
        try await Self.waitUntil { harness.manager.latestReceivedLocation?.timestamp == fixes.last?.time }
        while received.count + reports.reduce(0, +) < fixes.count, let update = await iterator.next() { take(update) }
        // Whether the first update was taken before the receiver ran ahead or not, the loop
        // holds at most the buffer, the rest is dropped, and it is told so once, in one count.
        #expect(reports.count == 1)
        #expect(received.count + reports.reduce(0, +) == fixes.count)
        #expect(received.count >= LocationUpdate.bufferLimit && received.count <= LocationUpdate.bufferLimit + 1)
        #expect(received == received.sorted() && received.last == fixes.last?.time)
    }

    // MARK: Stationary

    /// 20 s driving in at 50 m/s, a 200 s stop reported by a 15 m receiver (positions scattered by up to
    /// 6 m, as a receiver at rest reports them), then driving away.
    static func stopAtFifteenMetres() -> [Fix] {
        var random = SeededGenerator(seed: 15)
        var fixes = (0..<20).map { Fix.synthetic(at: .at(north: Double($0 - 20) * 50), second: Double($0), accuracy: 15) }
        fixes += (20..<220).map { second in
            let north = Double.random(in: -6...6, using: &random)
            let east = Double.random(in: -6...6, using: &random)
            return Fix.synthetic(at: .at(north: north, east: east), second: Double(second), accuracy: 15)
        }
        fixes += (1...5).map { Fix.synthetic(at: .at(north: Double($0) * 150), second: 220 + Double($0), accuracy: 15) }
        return fixes
    }

    @Test("a 200 s stop at eph 15 m: stationary once for default, fitness, automotive and other navigation; airborne never",
          arguments: [("default", LocationUpdate.LiveConfiguration.default, 1),
                      ("fitness", .fitness, 1),
                      ("automotiveNavigation", .automotiveNavigation, 1),
                      ("otherNavigation", .otherNavigation, 1),
                      ("airborne", .airborne, 0)])
    func stationaryAtFifteenMetres(_ name: String, _ configuration: LocationUpdate.LiveConfiguration, _ expected: Int) async throws {
        let fixes = Self.stopAtFifteenMetres()
        let harness = try Harness(fixes: fixes)
        let end = fixes.last?.time
        var updates: [LocationUpdate] = []
        for await update in LocationUpdate.liveUpdates(configuration, from: harness.manager) {
            updates.append(update)
            if update.location?.timestamp == end { break }
        }
        #expect(updates.filter(\.isStationary).count == expected, "\(name)")
        if expected == 1 {
            // Stationary during the stop, after the configuration's interval, never before.
            let settled = try #require(updates.first(where: \.isStationary)?.location?.timestamp)
            let stopped = try #require(fixes[20].time)
            #expect(settled.timeIntervalSince(stopped) >= configuration.stationaryInterval / .seconds(1), "\(name)")
            #expect(settled.timeIntervalSince(stopped) < 200, "\(name)")
        }
    }

    @Test("moving with eph 15 m is never stationary: walking under fitness, a slow car under automotive navigation")
    func movingIsNotStationary() async throws {
        for (configuration, speed) in [(LocationUpdate.LiveConfiguration.fitness, 1.5), (.automotiveNavigation, 3), (.otherNavigation, 1.5)] {
            let fixes = (0..<200).map { Fix.synthetic(at: .at(north: Double($0) * speed), second: Double($0), accuracy: 15) }
            let harness = try Harness(fixes: fixes)
            let end = fixes.last?.time
            var stationary = 0
            for await update in LocationUpdate.liveUpdates(configuration, from: harness.manager) {
                if update.isStationary { stationary += 1 }
                if update.location?.timestamp == end { break }
            }
            #expect(stationary == 0, "\(configuration) at \(speed) m/s")
        }
    }

    // MARK: Monitor

    @Test("a monitor's records round-trip exactly: dates to the last bit, identifiers, radii, last states; version 1 files still read")
    func monitorRoundTrips() async throws {
        let directory = try TemporaryDirectory()
        let monitors = directory.path + "/monitors"
        let dates = [1_757_667_600.25, 1_757_667_600.936250, 1_757_667_600.1, 1_757_667_600 + 1e-6, 1_757_667_600.999999,
                     978_307_200.000_01, 946_684_799.5].map { Date(timeIntervalSince1970: $0) }
        let pending = Mutex(dates)
        let monitor = try Monitor(named: "exact", directory: monitors, now: { pending.withLock { $0.isEmpty ? Date() : $0.removeFirst() } })
        let identifiers = ["home", "wörk 🏠", "a/b", "quay \"7\""]
        var conditions: [String: CircularGeographicCondition] = [:]
        for (index, identifier) in identifiers.enumerated() {
            let condition = CircularGeographicCondition(center: .at(north: Double(index) * 1_000.123_456_7, east: 0.000_123),
                                                        radius: 123.456_789_012_3 + Double(index))
            conditions[identifier] = condition
            try await monitor.add(condition, identifier: identifier,
                                  assuming: index.isMultiple(of: 2) ? .satisfied : .unsatisfied)
        }
        var before: [String: Monitor.Record] = [:]
        for identifier in identifiers { before[identifier] = await monitor.record(for: identifier) }
        // One monitor of a name at a time, as the program's next run would open it.
        await monitor.close()
        let reopened = try Monitor(named: "exact", directory: monitors)
        #expect(await reopened.identifiers.sorted() == identifiers.sorted())
        for identifier in identifiers {
            let record = try #require(await reopened.record(for: identifier))
            #expect(record == before[identifier], "\(identifier)")
            #expect(record.condition == conditions[identifier])
            #expect(record.lastEvent.date.timeIntervalSinceReferenceDate == before[identifier]?.lastEvent.date.timeIntervalSinceReferenceDate)
        }
        // The text a person reads: ISO 8601, with the fraction.
        let text = try String(contentsOfFile: monitor.path, encoding: .utf8)
        #expect(text.contains("\"date\" : \"2025-09-12T09:00:00.25Z\""), "\(text)")
        #expect(text.contains("\"version\" : 2"))

        // A file written by the version before: whole seconds.
        let old = """
        {
          "records" : [
            {
              "condition" : { "center" : { "latitude" : 48.8566, "longitude" : 2.3522 }, "radius" : 100 },
              "lastEvent" : { "date" : "2024-12-19T08:26:40Z", "identifier" : "home", "state" : "satisfied" }
            }
          ],
          "version" : 1
        }
        """
        try old.write(toFile: monitors + "/old.json", atomically: true, encoding: .utf8)
        let legacy = try Monitor(named: "old", directory: monitors)
        let record = try #require(await legacy.record(for: "home"))
        #expect(record.lastEvent.date == Date(timeIntervalSince1970: 1_734_596_800))
        #expect(record.lastEvent.state == .satisfied && record.condition.radius == 100)
    }

    // MARK: Approximate access

    static let precise = Coordinate(latitude: -27.210673, longitude: 153.052000) ?? Harness.origin

    static func onGrid(_ coordinate: Coordinate?) -> Bool {
        guard let coordinate else { return false }
        return ApproximateLocation.isOnGrid(coordinate.latitude) && ApproximateLocation.isOnGrid(coordinate.longitude)
    }

    @Test("after a downgrade to approximate during a run, no path gives a coordinate off the grid")
    func downgradeReachesEveryPath() async throws {
        let clock = ManualClock()
        let store = AuthorizationStore.inMemory(.authorizedWhenInUse)
        // A stay of 310 s (a visit after 300 s, stationary after 120 s), a pause on the manual
        // clock while access is reduced, then leaving far enough to leave an approximate cell.
        let stay = (0..<310).map { Fix.synthetic(at: Self.precise.offset(north: Double($0 % 3), east: 0), second: Double($0), accuracy: 5) }
        let away = (1...3).map { Fix.synthetic(at: Self.precise.offset(north: Double($0) * 10_000, east: 0), second: 310 + Double($0), accuracy: 5) }
        let steps: [ScriptedLocationSource.Step] = [.state(.receiverPresent)] + stay.map { .fix($0) } + [.wait(.seconds(1))]
            + away.map { .fix($0) }
        let manager = LocationManager(source: ScriptedLocationSource(steps, clock: clock), clock: clock, authorizationStore: store)
        let locationDriver = manager.rx.delegate.driver(.location)
        let visitDriver = manager.rx.delegate.driver(.didVisit)
        let reportDriver = manager.rx.delegate.driver(.didReceiveReport)
        let service = GeolocationService(manager: manager)
        manager.startMonitoringVisits()
        var live = LocationUpdate.liveUpdates(from: manager).makeAsyncIterator()
        _ = await live.next()
        try await Self.waitUntil { manager.latestReceivedLocation?.timestamp == stay.last?.time }
        // Precise until now: the checks below would pass for nothing otherwise.
        #expect(!Self.onGrid(manager.location?.coordinate))
        #expect(!Self.onGrid(service.latestLocation.latest?.coordinate))
        #expect(!Self.onGrid(visitDriver.latest?.coordinate))

        try store.write(.authorizedWhenInUse, accuracy: .reducedAccuracy)
        try await Self.waitUntil { manager.accuracyAuthorization == .reducedAccuracy }

        #expect(Self.onGrid(manager.location?.coordinate), "manager.location")
        #expect(Self.onGrid(manager.latestReceivedLocation?.coordinate), "manager.latestReceivedLocation")
        let replayed = await manager.rx.location.firstElements(1)
        #expect(replayed.count == 1 && replayed.allSatisfy { Self.onGrid($0.coordinate) }, "rx.location's replay")
        #expect(Self.onGrid(service.location.latest), "service.location")
        #expect(Self.onGrid(await service.location.subscribe().firstElements(1).first), "service.location, a new consumer")
        #expect(Self.onGrid(service.latestLocation.latest?.coordinate), "service.latestLocation")
        #expect(Self.onGrid(await service.latestLocation.subscribe().firstElements(1).first?.coordinate),
                "service.latestLocation, a new consumer")
        #expect(Self.onGrid(locationDriver.latest?.coordinate), "rx.delegate.driver(.location)")
        #expect(Self.onGrid(visitDriver.latest?.coordinate), "rx.delegate.driver(.didVisit)")
        if case .fix(let fix)? = reportDriver.latest {
            #expect(Self.onGrid(fix.coordinate), "rx.delegate.driver(.didReceiveReport)")
        } else {
            Issue.record("no fix report: \(String(describing: reportDriver.latest))")
        }
        if case .fix(let shown, _)? = service.status.latest {
            #expect(Self.onGrid(shown.coordinate), "service.status")
        } else {
            Issue.record("the status shows no fix: \(String(describing: service.status.latest))")
        }

        // Leaving: the loop was stationary; approximate locations cannot tell a stay, so they
        // come again, and only on the grid.
        clock.advance(by: .seconds(1))
        var after: [Location] = []
        while after.last?.timestamp != away.last?.time, let update = await live.next() {
            if let location = update.location { after.append(location) }
        }
        let afterDowngrade = after.filter { $0.timestamp > (stay.last?.time ?? .distantPast) }
        #expect(afterDowngrade.count == away.count)
        #expect(afterDowngrade.allSatisfy { Self.onGrid($0.coordinate) }, "live updates")
        #expect(Self.onGrid(manager.location?.coordinate) && Self.onGrid(service.location.latest))
    }

    @Test("a one-shot request's best location so far is snapped when access is reduced before it times out")
    func downgradeReachesTheOneShot() async throws {
        let clock = ManualClock()
        let store = AuthorizationStore.inMemory(.authorizedWhenInUse)
        let fix = Fix.synthetic(at: Self.precise, second: 0, accuracy: 30)
        // A receiver that goes on (quiet after its fix): a source that ended would answer the
        // request at its end, before the downgrade.
        let manager = LocationManager(source: ScriptedLocationSource([.state(.receiverPresent), .fix(fix), .wait(.seconds(600))],
                                                                     clock: clock),
                                      clock: clock, authorizationStore: store)
        manager.desiredAccuracy = 5
        let answer = Task { try await manager.rx.requestLocation() }
        try await Self.waitUntil { manager.latestReceivedLocation != nil }
        try store.write(.authorizedWhenInUse, accuracy: .reducedAccuracy)
        try await Self.waitUntil { manager.accuracyAuthorization == .reducedAccuracy }
        await clock.sleepers(atLeast: 1)
        clock.advance(by: manager.requestLocationTimeout)
        let location = try await answer.value
        #expect(Self.onGrid(location.coordinate))
    }

    @Test("after a downgrade, a report of the same fix time is not completed with the precise report's speed and course")
    @MainActor
    func downgradeBetweenTwoReportsOfOneCycle() async throws {
        let clock = ManualClock()
        let store = AuthorizationStore.inMemory(.authorizedWhenInUse)
        let precise = Fix.synthetic(at: Self.precise, second: 0, accuracy: 5, speed: 3, course: 90)
        let second = Fix.synthetic(at: Self.precise, second: 0, accuracy: 4)
        let steps: [ScriptedLocationSource.Step] = [.state(.receiverPresent), .fix(precise), .wait(.seconds(1)), .fix(second)]
        let manager = LocationManager(source: ScriptedLocationSource(steps, clock: clock), clock: clock, authorizationStore: store)
        let service = GeolocationService(manager: manager)
        let sent = Mutex<[Location]>([])
        let shown = Mutex<[(Location, Heading?)]>([])
        let observation = service.observe { update in
            switch update {
            case .location(let location): sent.withLock { $0.append(location) }
            case .status(.fix(let location, let heading)): shown.withLock { $0.append((location, heading)) }
            default: break
            }
        }
        defer { observation.cancel() }
        try await Self.waitUntil { sent.withLock { $0.count } == 1 }
        #expect(sent.withLock { $0.first?.speed } == 3)
        try store.write(.authorizedWhenInUse, accuracy: .reducedAccuracy)
        try await Self.waitUntil { manager.accuracyAuthorization == .reducedAccuracy }
        await clock.sleepers(atLeast: 1)
        clock.advance(by: .seconds(1))
        try await Self.waitUntil { sent.withLock { $0.count } == 2 }
        let last = try #require(sent.withLock { $0.last })
        #expect(Self.onGrid(last.coordinate))
        #expect(last.speed == nil && last.course == nil, "\(String(describing: last.speed)) \(String(describing: last.course))")
        // And the status line shows it so.
        let (location, heading) = try #require(shown.withLock { $0.last })
        #expect(Self.onGrid(location.coordinate))
        #expect(location.speed == nil && location.course == nil && heading == nil)
    }
}
