import Foundation
import GeoTrackTesting
import GPSReports
@testable import LocationKit
import Testing

@MainActor
@Suite struct LocationUpdateTests {
    @Test("accuracyFilter drops updates of worse or unknown accuracy")
    func accuracyFilterDropsWorseAndUnknownAccuracy() async throws {
        let accuracies: [Double?] = [5, 50, nil, 8, 10.5]
        let fixes = accuracies.enumerated().map { index, accuracy in
            Fix.synthetic(at: .at(north: Double(index) * 100), second: Double(index), accuracy: accuracy)
        }
        let harness = try Harness(fixes: fixes)
        harness.manager.accuracyFilter = 10
        let updates = harness.manager.rx.didUpdateLocations
        harness.manager.startUpdatingLocation()
        let delivered = await updates.firstElements(2).flatMap { $0 }
        #expect(delivered.map(\.horizontalAccuracy) == [5, 8])
    }

    @Test("locations from a played-back source are marked simulated, as CoreLocation's sourceInformation does")
    func replayedLocationsAreSimulated() async throws {
        let harness = try Harness(fixes: [.synthetic(at: .at(north: 0), second: 0)])
        let updates = harness.manager.rx.didUpdateLocations
        harness.manager.startUpdatingLocation()
        let delivered = try #require(await updates.firstElements(1).first?.first)
        #expect(delivered.sourceInformation.isSimulatedBySoftware)
        #expect(!delivered.sourceInformation.isProducedByAccessory)
        // A location made by hand claims neither.
        #expect(Location(coordinate: delivered.coordinate, timestamp: delivered.timestamp).sourceInformation == SourceInformation())
    }

    @Test("desiredAccuracy is a hint, as in CoreLocation: it drops no update")
    func desiredAccuracyDropsNothing() async throws {
        let accuracies: [Double?] = [5, 50, nil, 8]
        let fixes = accuracies.enumerated().map { index, accuracy in
            Fix.synthetic(at: .at(north: Double(index) * 100), second: Double(index), accuracy: accuracy)
        }
        let harness = try Harness(fixes: fixes)
        harness.manager.desiredAccuracy = LocationAccuracy.nearestTenMeters
        let updates = harness.manager.rx.didUpdateLocations
        harness.manager.startUpdatingLocation()
        let delivered = await updates.firstElements(4).flatMap { $0 }
        #expect(delivered.map(\.horizontalAccuracy) == accuracies)
    }

    @Test("kCLLocationAccuracyBestForNavigation ports: bestForNavigation takes the first fix, whatever its accuracy, as best does")
    func bestForNavigationIsBest() async throws {
        let harness = try Harness(fixes: [.synthetic(at: .at(north: 0), second: 0, accuracy: 900)])
        harness.manager.desiredAccuracy = LocationAccuracy.bestForNavigation
        let answer = try await harness.manager.rx.requestLocation()
        #expect(answer.horizontalAccuracy == 900)
    }

    @Test("requestLocation waits for desiredAccuracy, and at the timeout answers with the best it saw")
    func requestLocationAnswersWithTheBestAtTheTimeout() async throws {
        let harness = try Harness { _ in [.state(.receiverPresent),
                                          .fix(.synthetic(at: .at(north: 0), second: 0, accuracy: 40)),
                                          .fix(.synthetic(at: .at(north: 1), second: 1, accuracy: 25)),
                                          .fix(.synthetic(at: .at(north: 2), second: 2, accuracy: nil)),
                                          .wait(.seconds(600))] }
        harness.manager.desiredAccuracy = LocationAccuracy.nearestTenMeters
        harness.manager.requestLocationTimeout = .seconds(5)
        let manager = harness.manager
        let single = Task { try await manager.rx.requestLocation() }
        await harness.clock.sleepers(atLeast: 2)
        // Nothing met 10 m, so nothing is answered before the timeout.
        #expect(harness.delegate.locations.isEmpty)
        harness.clock.advance(by: .seconds(5))
        let location = try await single.value
        #expect(location.horizontalAccuracy == 25)
        #expect(harness.delegate.locations.map(\.horizontalAccuracy) == [25])
        #expect(harness.delegate.errors.isEmpty)
    }

    @Test func bestAccuracyDeliversEverything() async throws {
        let fixes = [5.0, 500, 50].enumerated().map { Fix.synthetic(at: .at(north: Double($0.offset)), second: Double($0.offset), accuracy: $0.element) }
        let harness = try Harness(fixes: fixes)
        let updates = harness.manager.rx.didUpdateLocations
        harness.manager.startUpdatingLocation()
        let delivered = await updates.firstElements(3).flatMap { $0 }
        #expect(delivered.map(\.horizontalAccuracy) == [5, 500, 50])
    }

    @Test func distanceFilterDeliversOnlyAfterMovingFarEnough() async throws {
        let norths: [Double] = [0, 20, 60, 70, 130, 140]
        let fixes = norths.enumerated().map { Fix.synthetic(at: .at(north: $0.element), second: Double($0.offset)) }
        let harness = try Harness(fixes: fixes)
        harness.manager.distanceFilter = 50
        let status = harness.manager.rx.didChangeReceiverStatus
        harness.manager.startUpdatingLocation()
        // The source ends after the last fix, which the receiver status reports.
        _ = await status.firstMatching { $0.sourceState == .finished }
        let delivered = harness.delegate.locations.map { ($0.coordinate.distance(to: Harness.origin)).rounded() }
        #expect(delivered == [0, 60, 130])
    }

    @Test("a fix lost and found again at the same place is delivered whatever distanceFilter says: the old one no longer holds")
    func distanceFilterAfterALostFix() async throws {
        let lost = Fix(mode: .noFix, time: Date(timeIntervalSince1970: 1_735_689_601), device: "/dev/ttyTEST")
        let fixes = [Fix.synthetic(at: .at(north: 0), second: 0), lost, Fix.synthetic(at: .at(north: 5), second: 30)]
        let harness = try Harness(fixes: fixes)
        harness.manager.distanceFilter = 50
        let status = harness.manager.rx.didChangeReceiverStatus
        harness.manager.startUpdatingLocation()
        _ = await status.firstMatching { $0.sourceState == .finished }
        #expect(harness.delegate.locations.map { $0.coordinate.distance(to: Harness.origin).rounded() } == [0, 5])
    }

    @Test func noNaNSurfacesAndNonPositionsAreNotDelivered() async throws {
        var bad = Fix.synthetic(at: .at(north: 0), second: 0)
        bad.altitudeMSL = .nan
        bad.altitudeHAE = .infinity
        bad.eph = .nan
        bad.epv = -1
        bad.speed = .nan
        bad.track = .nan
        bad.eps = .nan
        bad.epd = -.infinity
        var noPosition = Fix.synthetic(at: .at(north: 10), second: 1)
        noPosition.latitude = .nan
        var noFix = Fix.synthetic(at: .at(north: 20), second: 2)
        noFix.mode = .noFix
        let good = Fix.synthetic(at: .at(north: 30), second: 3, speed: 2, course: 370)
        let harness = try Harness(fixes: [bad, noPosition, noFix, good])
        let updates = harness.manager.rx.didUpdateLocations
        harness.manager.startUpdatingLocation()
        let delivered = await updates.firstElements(2).flatMap { $0 }
        #expect(delivered.count == 2)
        let first = try #require(delivered.first)
        #expect(first.altitude == nil && first.ellipsoidalAltitude == nil)
        #expect(first.horizontalAccuracy == nil && first.verticalAccuracy == nil)
        #expect(first.speed == nil && first.course == nil && first.speedAccuracy == nil && first.courseAccuracy == nil)
        #expect(delivered.last?.course == 10)
        for location in delivered {
            let optionals: [Double?] = [location.altitude, location.ellipsoidalAltitude, location.horizontalAccuracy, location.verticalAccuracy,
                                        location.speed, location.speedAccuracy, location.course, location.courseAccuracy]
            let values = optionals.compactMap { $0 }
            #expect(values.allSatisfy { $0.isFinite })
        }
        #expect(Location(fix: noPosition) == nil)
        #expect(Location(fix: noFix) == nil)
    }

    @Test func staleSourceMarksTheLocationStale() async throws {
        let harness = try Harness { _ in
            [.state(.receiverPresent), .fix(.synthetic(at: .at(north: 0), second: 0)), .state(.stale),
             .fix(.synthetic(at: .at(north: 5), second: 9))]
        }
        let locations = harness.manager.rx.location
        let statuses = harness.manager.rx.didChangeReceiverStatus
        harness.manager.startUpdatingLocation()
        let stale = await statuses.firstMatching { $0.isStale }
        #expect(stale?.sourceState == .stale)
        let both = await locations.firstElements(2)
        #expect(both.map(\.isStale) == [false, false])
        #expect(harness.manager.location?.isStale == false)
        #expect(harness.delegate.events.contains(.receiver(ReceiverStatus(sourceState: .stale, fixMode: .threeD, isStale: true, receiver: "/dev/ttyTEST"))))
    }

    @Test func staleWithoutNewFixIsNeverCurrent() async throws {
        let harness = try Harness { _ in [.state(.receiverPresent), .fix(.synthetic(at: .at(north: 0), second: 0)), .state(.stale)] }
        let statuses = harness.manager.rx.didChangeReceiverStatus
        harness.manager.startUpdatingLocation()
        _ = await statuses.firstMatching { $0.sourceState == .finished }
        #expect(harness.manager.location?.isStale == true)
        #expect(harness.manager.receiverStatus.isStale)
    }

    @Test("a requestLocation pending when the source ends is answered then, and the ended replay is not played again")
    func requestLocationSettlesWhenTheSourceEnds() async throws {
        // Three 9.5 m fixes; the request wants 5 m, which no fix of this replay will ever meet.
        let fixes = (0..<3).map { Fix.synthetic(at: .at(north: Double($0) * 20), second: Double($0), accuracy: 9.5) }
        let harness = try Harness(fixes: fixes)
        let manager = harness.manager
        manager.desiredAccuracy = 5
        let played = manager.rx.didChangeReceiverStatus
        manager.startUpdatingLocation()
        manager.requestLocation()
        let answer = Task { try await manager.rx.requestLocation() }
        _ = await played.firstMatching { $0.sourceState == .finished }
        // Nothing more can come: the most accurate fix answers now, not 15 s later.
        #expect(manager.oneShot == nil)
        // (Were it still pending, the timeout would answer it.)
        harness.clock.advance(by: manager.requestLocationTimeout)
        let best = try await answer.value
        #expect(best.timestamp == fixes[0].time)
        // Answering it does not start the replay over: only a start call does.
        #expect(manager.session == nil)
        #expect(harness.delegate.locations.count == 3)
    }

    @Test("a requestLocation pending when the source fails for good throws why, at once")
    func requestLocationFailsWithTheSourceError() async throws {
        let missing = SourceError(.unreadableFile, message: "cannot replay /nonexistent.nmea: no such file")
        let harness = try Harness { _ in [.state(.disconnected(missing))] }
        let manager = harness.manager
        let played = manager.rx.didChangeReceiverStatus
        let answer = Task { try await manager.rx.requestLocation() }
        _ = await played.firstMatching { $0.sourceState == .finished }
        #expect(manager.oneShot == nil)
        harness.clock.advance(by: manager.requestLocationTimeout)
        await #expect(throws: LocationError.source(missing)) { try await answer.value }
        // The delegate heard the failure once, when it happened.
        #expect(harness.delegate.errors == [.source(missing)])
    }

    @Test("a requestLocation whose source keeps failing (gpsd refused, retried) times out with why, said once")
    func requestLocationTimesOutWithTheSourceError() async throws {
        let refused = SourceError.connectionRefused(host: "127.0.0.1", port: 2947)
        let harness = try Harness { _ in [.state(.disconnected(refused)), .state(.retrying(after: .seconds(2))), .wait(.seconds(3600))] }
        let manager = harness.manager
        let statuses = manager.rx.didChangeReceiverStatus
        let answer = Task { try await manager.rx.requestLocation() }
        _ = await statuses.firstMatching { if case .retrying? = $0.sourceState { true } else { false } }
        harness.clock.advance(by: manager.requestLocationTimeout)
        await #expect(throws: LocationError.source(refused)) { try await answer.value }
        #expect(harness.delegate.errors == [.source(refused)])
    }

    @Test("a lost connection makes the last location stale until a new fix, as a silence does")
    func lostConnectionMakesTheLocationStale() async throws {
        let closed = SourceError.connectionClosed(host: "127.0.0.1", port: 2947)
        let harness = try Harness { _ in
            [.state(.receiverPresent), .fix(.synthetic(at: .at(north: 0), second: 0)),
             .state(.disconnected(closed)), .state(.retrying(after: .seconds(1))), .wait(.seconds(1)),
             .state(.connecting), .state(.connected), .state(.receiverPresent), .wait(.seconds(1)),
             .fix(.synthetic(at: .at(north: 5), second: 9)), .wait(.seconds(1))]
        }
        let manager = harness.manager
        let retrying = manager.rx.didChangeReceiverStatus
        manager.startUpdatingLocation()
        _ = await retrying.firstMatching { if case .retrying? = $0.sourceState { true } else { false } }
        // gpsd went away seconds ago: what the manager holds is where the receiver was.
        #expect(manager.location?.isStale == true)
        #expect(manager.latestReceivedLocation?.isStale == true)
        #expect(manager.receiverStatus.isStale)
        // No current location, so a region's state is unknown, not decided on the old fix.
        let home = CircularRegion(center: Harness.origin, radius: 100, identifier: "home")
        manager.requestState(for: home)
        #expect(harness.delegate.events.last == .state(.unknown, "home"))

        let reconnected = manager.rx.didChangeReceiverStatus
        await harness.clock.sleepers(atLeast: 1)
        harness.clock.advance(by: .seconds(1))
        _ = await reconnected.firstMatching { $0.sourceState == .receiverPresent }
        // Connected again, but nothing new yet: still the old fix, still stale.
        #expect(manager.location?.isStale == true)
        #expect(manager.receiverStatus.isStale)

        let located = manager.rx.didUpdateLocations
        await harness.clock.sleepers(atLeast: 1)
        harness.clock.advance(by: .seconds(1))
        let fresh = await located.firstElements(1).flatMap { $0 }
        #expect(fresh.map(\.isStale) == [false])
        #expect(manager.location?.isStale == false)
        #expect(!manager.receiverStatus.isStale)
        manager.stopUpdatingLocation()
    }

    @Test("a fix from before gpsd was lost is stale once gpsd is back, until the receiver reports again")
    func lostConnectionMakesTheFixStale() async throws {
        let refused = SourceError.connectionRefused(host: "localhost", port: 2947)
        // gpsd restarted within the stale watchdog's time: nothing said the fix went stale.
        let harness = try Harness { _ in
            [.state(.connected), .state(.receiverPresent), .fix(.synthetic(at: .at(north: 0), second: 0)),
             .state(.disconnected(refused)), .state(.connected), .state(.receiverPresent),
             .fix(.synthetic(at: .at(north: 5), second: 9))]
        }
        let statuses = harness.manager.rx.didChangeReceiverStatus
        harness.manager.startUpdatingLocation()
        _ = await statuses.firstMatching { $0.sourceState == .finished }
        #expect(harness.delegate.events.contains(.receiver(ReceiverStatus(sourceState: .receiverPresent, fixMode: .threeD, isStale: true,
                                                                                 receiver: "/dev/ttyTEST"))),
                "\(harness.delegate.events)")
        #expect(!harness.manager.receiverStatus.isStale)
    }

    @Test("after a lost connection, a fix takes no satellites or dilutions from the session that ended")
    func lostConnectionForgetsTheSky() async throws {
        let refused = SourceError.connectionRefused(host: "localhost", port: 2947)
        var sky = SkyView(device: "/dev/ttyACM0", satellites: (0..<20).map { Satellite(prn: $0 + 1, signalStrength: 30, used: $0 < 14) })
        sky.hdop = 0.4
        // A receiver that sends a SKY before gpsd goes away, and after it is back only a TPV.
        let harness = try Harness { _ in
            [.state(.connected), .state(.receiverPresent), .event(.report(.sky(sky))),
             .fix(.synthetic(at: .at(north: 0), second: 0, device: "/dev/ttyACM0")),
             .state(.disconnected(refused)), .state(.connected), .state(.receiverPresent),
             .fix(.synthetic(at: .at(north: 5), second: 9, device: "/dev/ttyACM0"))]
        }
        let updates = harness.manager.rx.didUpdateLocations
        let statuses = harness.manager.rx.didChangeReceiverStatus
        harness.manager.startUpdatingLocation()
        let delivered = await updates.firstElements(2).flatMap { $0 }
        #expect(delivered.map(\.gnss.satellitesUsed) == [14, nil])
        #expect(delivered.map(\.gnss.hdop) == [0.4, nil])
        let lost = await statuses.firstMatching { if case .disconnected? = $0.sourceState { true } else { false } }
        #expect(lost?.satellitesUsed == 0 && lost?.satellitesSeen == 0, "\(String(describing: lost))")
    }

    @Test("with two receivers on one gpsd, the status counts the one closest to a fix, not whichever sent the last SKY")
    func receiverStatusCountsTheBestReceiver() async throws {
        func sky(_ device: String, seen: Int, used: Int) -> SkyView {
            SkyView(device: device, satellites: (0..<seen).map { Satellite(prn: $0 + 1, signalStrength: 30, used: $0 < used) })
        }
        // Searching on both, their SKYs interleaved as gpsd sends them; then the better one is unplugged.
        let harness = try Harness { _ in
            [.state(.receiverPresent),
             .event(.report(.sky(sky("/dev/pts/11", seen: 9, used: 2)))),
             .event(.report(.sky(sky("/dev/pts/12", seen: 12, used: 3)))),
             .event(.report(.sky(sky("/dev/pts/11", seen: 10, used: 2)))),
             .event(.report(.sky(sky("/dev/pts/12", seen: 12, used: 3)))),
             .event(.report(.deviceRemoved(Device(path: "/dev/pts/12")))),
             .event(.report(.sky(sky("/dev/pts/11", seen: 10, used: 3))))]
        }
        let statuses = harness.manager.rx.didChangeReceiverStatus
        let counts = Task {
            var seen: [[Int?]] = []
            for await status in statuses {
                let pair = [status.satellitesSeen, status.satellitesUsed]
                if pair != seen.last { seen.append(pair) }
                if pair == [10, 3] { break }
            }
            return seen
        }
        harness.manager.startUpdatingLocation()
        // Before, the counts followed each SKY: 9/2, 12/3, 10/2, 12/3.
        #expect(await counts.value.filter { $0 != [0, 0] } == [[9, 2], [12, 3], [10, 2], [10, 3]])
    }

    @Test("with two receivers on one gpsd, the first to give a position is followed, with its own sky view; the other's reports are set aside and named")
    func fixPairsWithItsOwnReceiversSky() async throws {
        func sky(_ device: String, used: Int, hdop: Double) -> SkyView {
            var sky = SkyView(device: device, satellites: (0..<20).map { Satellite(prn: $0 + 1, signalStrength: 30, used: $0 < used) })
            sky.hdop = hdop
            return sky
        }
        // As gpsd interleaves them: each receiver's SKY, then their TPVs.
        let harness = try Harness { _ in
            [.state(.receiverPresent), .event(.report(.sky(sky("/dev/pts/11", used: 8, hdop: 1.1)))),
             .event(.report(.sky(sky("/dev/pts/12", used: 16, hdop: 0.5)))),
             .fix(.synthetic(at: .at(north: 0), second: 0, device: "/dev/pts/11")),
             .event(.report(.sky(sky("/dev/pts/12", used: 16, hdop: 0.5)))),
             .fix(.synthetic(at: .at(north: 5000), second: 1, device: "/dev/pts/12")),
             .fix(.synthetic(at: .at(north: 5), second: 2, device: "/dev/pts/11"))]
        }
        let updates = harness.manager.rx.didUpdateLocations
        let statuses = harness.manager.rx.didChangeReceiverStatus
        harness.manager.startUpdatingLocation()
        let delivered = await updates.firstElements(2).flatMap { $0 }
        #expect(delivered.map(\.gnss.device) == ["/dev/pts/11", "/dev/pts/11"])
        #expect(delivered.map { $0.timestamp.timeIntervalSince1970 } == [1_735_689_600, 1_735_689_602])
        #expect(delivered.map(\.gnss.satellitesUsed) == [8, 8])
        #expect(delivered.map(\.gnss.hdop) == [1.1, 1.1])
        _ = await statuses.firstMatching { $0.sourceState == .finished }
        #expect(harness.manager.receiverStatus.receiver == "/dev/pts/11")
        #expect(harness.manager.receiverStatus.otherReceivers == ["/dev/pts/12"])
        // The status counts the followed receiver's satellites, not the other's 16.
        #expect(harness.manager.receiverStatus.satellitesUsed == 8)
    }

    @Test("a second receiver without a fix does not hide the first one's, and once the followed receiver is removed, the other is followed")
    func receiverWithoutFixCannotHideTheFix() async throws {
        let noFix = Fix(mode: .noFix, device: "/dev/pts/12")
        let harness = try Harness { _ in
            [.state(.receiverPresent),
             .event(.report(.fix(noFix))),
             .fix(.synthetic(at: .at(north: 0), second: 0, device: "/dev/pts/11")),
             .event(.report(.fix(noFix))),
             .fix(.synthetic(at: .at(north: 5), second: 1, device: "/dev/pts/11")),
             .event(.report(.fix(noFix))),
             .event(.report(.deviceRemoved(Device(path: "/dev/pts/11")))),
             .fix(.synthetic(at: .at(north: 900), second: 2, device: "/dev/pts/12"))]
        }
        let updates = harness.manager.rx.didUpdateLocations
        let statuses = harness.manager.rx.didChangeReceiverStatus
        let modes = Task {
            var modes: [FixMode] = []
            for await status in statuses {
                if status.fixMode != modes.last { modes.append(status.fixMode) }
                if status.sourceState == .finished { break }
            }
            return modes
        }
        harness.manager.startUpdatingLocation()
        let delivered = await updates.firstElements(3).flatMap { $0 }
        #expect(delivered.map(\.gnss.device) == ["/dev/pts/11", "/dev/pts/11", "/dev/pts/12"])
        // Before, every TPV of the receiver without a fix turned the status back to "no fix".
        #expect(await modes.value.filter { $0 != .unknown } == [.noFix, .threeD])
        #expect(harness.manager.receiverStatus.receiver == "/dev/pts/12")
        #expect(harness.manager.receiverStatus.otherReceivers.isEmpty)
    }

    @Test("after a lost connection, the receiver followed is chosen again: gpsd may come back with another receiver on the same path")
    func followedReceiverChosenAgainAfterReconnection() async throws {
        let noFix = Fix(mode: .noFix, device: "/dev/pts/1")
        let harness = try Harness { _ in
            [.state(.receiverPresent),
             .fix(.synthetic(at: .at(north: 0), second: 0, device: "/dev/pts/1")),
             .event(.report(.fix(.synthetic(at: .at(north: 900), second: 1, device: "/dev/pts/2")))),
             .state(.disconnected(SourceError.connectionClosed(host: "localhost", port: 2947))),
             .state(.connected), .state(.receiverPresent),
             // gpsd restarted: /dev/pts/1 is now a receiver without a fix, /dev/pts/2 has one.
             .event(.report(.fix(noFix))),
             .fix(.synthetic(at: .at(north: 900), second: 2, device: "/dev/pts/2")),
             .event(.report(.fix(noFix))),
             .fix(.synthetic(at: .at(north: 905), second: 3, device: "/dev/pts/2"))]
        }
        let statuses = harness.manager.rx.didChangeReceiverStatus
        harness.manager.startUpdatingLocation()
        // Read once the script has ended, so that a manager that never follows /dev/pts/2 fails
        // here rather than waiting for locations that never come.
        _ = await statuses.firstMatching { $0.sourceState == .finished }
        let delivered = harness.delegate.events.flatMap { event -> [Location] in
            if case .locations(let locations) = event { locations } else { [] }
        }
        #expect(delivered.map(\.gnss.device) == ["/dev/pts/1", "/dev/pts/2", "/dev/pts/2"])
        #expect(harness.manager.receiverStatus.receiver == "/dev/pts/2")
        #expect(harness.manager.receiverStatus.otherReceivers == ["/dev/pts/1"])
    }

    @Test func locationServicesEnabledFollowsTheReceiver() async throws {
        let harness = try Harness { _ in [.state(.connected), .state(.receiverPresent), .wait(.seconds(1)), .state(.receiverAbsent), .wait(.seconds(1))] }
        let statuses = harness.manager.rx.didChangeReceiverStatus
        #expect(!harness.manager.locationServicesEnabled)
        harness.manager.startUpdatingLocation()
        _ = await statuses.firstMatching { $0.sourceState == .receiverPresent }
        #expect(harness.manager.locationServicesEnabled)
        await harness.clock.sleepers(atLeast: 1)
        harness.clock.advance(by: .seconds(1))
        _ = await statuses.firstMatching { $0.sourceState == .receiverAbsent }
        #expect(!harness.manager.locationServicesEnabled)
    }

    @Test func requestLocationDeliversOneFixThenStops() async throws {
        let harness = try Harness { _ in
            [.state(.receiverPresent), .wait(.seconds(2)), .fix(.synthetic(at: .at(north: 0), second: 0)),
             .fix(.synthetic(at: .at(north: 100), second: 1))]
        }
        harness.manager.requestLocationTimeout = .seconds(10)
        let manager = harness.manager
        let request = Task { try await manager.rx.requestLocation() }
        await harness.clock.sleepers(atLeast: 2) // the timeout and the script's wait
        harness.clock.advance(by: .seconds(2))
        let location = try await request.value
        #expect(location.coordinate == Coordinate.at(north: 0))
        #expect(harness.delegate.locations == [location])
        #expect(harness.delegate.errors.isEmpty)
        // The timeout was cancelled with the request: no failure comes later.
        harness.clock.advance(by: .seconds(30))
        #expect(harness.delegate.errors.isEmpty)
    }

    @Test func requestLocationFailsAfterTheTimeoutOnTheClock() async throws {
        let harness = try Harness { _ in [.state(.receiverPresent), .wait(.seconds(600)), .fix(.synthetic(at: .at(north: 0), second: 0))] }
        harness.manager.requestLocationTimeout = .seconds(5)
        let errors = harness.manager.rx.didFailWithError
        let manager = harness.manager
        let maybe = Task { try await manager.rx.requestLocationIfAvailable() }
        await harness.clock.sleepers(atLeast: 2)
        harness.clock.advance(by: .seconds(5))
        let none = try await maybe.value
        #expect(none == nil)
        let error = await errors.firstElements(1).first
        #expect(error == .locationUnknown(timeout: .seconds(5)))
        #expect(error?.description.contains("5s") == true)
        #expect(harness.delegate.locations.isEmpty)
    }

    @Test func singleThrowsOnTimeout() async throws {
        let harness = try Harness { _ in [.state(.receiverPresent), .wait(.seconds(600))] }
        harness.manager.requestLocationTimeout = .seconds(3)
        let manager = harness.manager
        let single = Task { try await manager.rx.requestLocation() }
        await harness.clock.sleepers(atLeast: 2)
        harness.clock.advance(by: .seconds(3))
        await #expect(throws: LocationError.locationUnknown(timeout: .seconds(3))) { try await single.value }
    }

    @Test func cancellingTheSingleEndsItWithoutAFix() async throws {
        let harness = try Harness { _ in [.state(.receiverPresent), .wait(.seconds(600))] }
        let manager = harness.manager
        let single = Task { try await manager.rx.requestLocation() }
        await harness.clock.sleepers(atLeast: 2)
        single.cancel()
        await #expect(throws: CancellationError.self) { try await single.value }
    }

    @Test("a request only an async caller made ends with its cancellation: no error reaches the delegate later, and the source is released")
    func cancellingTheLastWaiterEndsTheRequest() async throws {
        let harness = try Harness { _ in [.state(.receiverPresent), .wait(.seconds(600))] }
        harness.manager.requestLocationTimeout = .seconds(5)
        let manager = harness.manager
        let single = Task { try await manager.rx.requestLocation() }
        await harness.clock.sleepers(atLeast: 2)
        #expect(manager.needsSource)
        single.cancel()
        await #expect(throws: CancellationError.self) { try await single.value }
        // The cancellation reaches the manager through a main-actor task of its own.
        for _ in 0..<10_000 where manager.needsSource { await Task.yield() }
        #expect(!manager.needsSource)
        harness.clock.advance(by: .seconds(30))
        await Task.yield()
        #expect(harness.delegate.errors.isEmpty)
        #expect(harness.delegate.locations.isEmpty)
    }

    @Test("the delegate's requestLocation() outlives an async caller that gave up on the same request")
    func theDelegatesRequestOutlivesACancelledWaiter() async throws {
        let harness = try Harness { _ in [.state(.receiverPresent), .wait(.seconds(600))] }
        harness.manager.requestLocationTimeout = .seconds(5)
        let manager = harness.manager
        let errors = manager.rx.didFailWithError
        manager.requestLocation()
        let single = Task { try await manager.rx.requestLocation() }
        await harness.clock.sleepers(atLeast: 2)
        single.cancel()
        await #expect(throws: CancellationError.self) { try await single.value }
        #expect(manager.needsSource)
        harness.clock.advance(by: .seconds(5))
        #expect(await errors.firstElements(1).first == .locationUnknown(timeout: .seconds(5)))
    }

    @Test("undecided access until the timeout: requestLocation fails with notDetermined, not with 'no fix'")
    func undecidedUntilTheTimeout() async throws {
        // No prompter: only a grant from outside (geotrack auth grant) could decide it meanwhile.
        let harness = try Harness({ _ in [.state(.receiverPresent), .fix(.synthetic(at: .at(north: 0)))] }, status: nil)
        harness.manager.requestLocationTimeout = .seconds(3)
        let manager = harness.manager
        let single = Task { try await manager.rx.requestLocation() }
        await harness.clock.sleepers(atLeast: 1)
        harness.clock.advance(by: .seconds(3))
        await #expect(throws: LocationError.notDetermined) { try await single.value }
        #expect(harness.delegate.errors == [.notDetermined])
        #expect(harness.delegate.locations.isEmpty)
    }

    @Test("a source that keeps failing the same way is reported once per outage, not at every retry")
    func aLastingOutageIsReportedOnce() async throws {
        let refused = SourceError.connectionRefused(host: "127.0.0.1", port: 9)
        let unknownHost = SourceError.hostNotFound(host: "nohost.invalid", port: 2947)
        let harness = try Harness { _ in
            [.state(.disconnected(refused)), .state(.retrying(after: .seconds(1))),
             .state(.disconnected(refused)), .state(.retrying(after: .seconds(2))),
             .state(.disconnected(refused)), .state(.retrying(after: .seconds(4))),
             // Another failure is news; a connection ends the outage.
             .state(.disconnected(unknownHost)), .state(.retrying(after: .seconds(8))),
             .state(.connected), .state(.disconnected(refused)), .state(.retrying(after: .seconds(1)))]
        }
        let statuses = harness.manager.rx.didChangeReceiverStatus
        harness.manager.startUpdatingLocation()
        _ = await statuses.firstMatching { $0.sourceState == .finished }
        #expect(harness.delegate.errors == [.source(refused), .source(unknownHost), .source(refused)])
        // The receiver status still says every attempt.
        #expect(harness.delegate.events.filter {
            if case .receiver(let status) = $0, case .retrying? = status.sourceState { true } else { false }
        }.count == 5)
    }

    @Test func singleFailsAtOnceWhenDenied() async throws {
        let harness = try Harness({ _ in [] }, status: .denied)
        await #expect(throws: LocationError.denied) { try await harness.manager.rx.requestLocation() }
        #expect(harness.delegate.errors == [.denied])
    }

    @Test("startUpdatingLocation after an automatic pause resumes and says so, as CoreLocation does")
    func restartingAfterAPauseReportsTheResumption() async throws {
        // Standing still, a fix every 10 s for 90 s: paused once 60 s have passed.
        let fixes = (0..<10).map { Fix.synthetic(at: .at(north: 0), second: Double($0) * 10) }
        let harness = try Harness(fixes: fixes)
        let manager = harness.manager
        manager.pausesLocationUpdatesAutomatically = true
        manager.pauseRadius = 25
        manager.pauseInterval = .seconds(60)
        func kinds() -> String {
            harness.delegate.events.compactMap { event -> String? in
                switch event {
                case .locations: "L"
                case .pause: "P"
                case .resume: "R"
                default: nil
                }
            }.joined()
        }
        let firstPlay = manager.rx.didChangeReceiverStatus
        manager.startUpdatingLocation()
        _ = await firstPlay.firstMatching { $0.sourceState == .finished }
        #expect(kinds() == "LLLLLLP")

        // CoreLocation's didResume: "When you restart location services after an automatic
        // pause, Core Location calls this method." The app's restart is the resumption.
        let secondPlay = manager.rx.didChangeReceiverStatus
        manager.startUpdatingLocation()
        #expect(kinds() == "LLLLLLPR")
        _ = await secondPlay.firstMatching { $0.sourceState == .finished }
        #expect(kinds() == "LLLLLLPRLLLLLLP")
    }

    @Test func pausesWhileStationaryAndResumesWhenMoving() async throws {
        var fixes: [Fix] = []
        var second = 0.0
        for step in 0..<3 { fixes.append(.synthetic(at: .at(north: Double(step) * 100), second: second)); second += 10 }
        let stop = Coordinate.at(north: 300)
        let jitter: [(Double, Double)] = [(0, 0), (3, -2), (-4, 1), (2, 5), (-1, -3), (4, 2), (-2, -4), (1, 3), (0, -1), (3, 3)]
        for (north, east) in jitter { fixes.append(.synthetic(at: stop.offset(north: north, east: east), second: second)); second += 10 }
        for step in 1...2 { fixes.append(.synthetic(at: stop.offset(north: Double(step) * 100, east: 0), second: second)); second += 10 }
        let harness = try Harness(fixes: fixes)
        harness.manager.pausesLocationUpdatesAutomatically = true
        harness.manager.pauseRadius = 25
        harness.manager.pauseInterval = .seconds(60)
        let statuses = harness.manager.rx.didChangeReceiverStatus
        harness.manager.startUpdatingLocation()
        _ = await statuses.firstMatching { $0.sourceState == .finished }
        let kinds = harness.delegate.events.compactMap { event -> String? in
            switch event {
            case .locations: "L"
            case .pause: "P"
            case .resume: "R"
            default: nil
            }
        }
        // 3 moving fixes, 6 at the stop (t+0...t+50 s), the pause when 60 s have passed,
        // silence for the rest of the stop, then the first fix away resumes and is delivered.
        let expected = "LLLLLLLLLPRLL"
        #expect(kinds.joined() == expected)
        #expect(harness.delegate.locations.count == 11)
        #expect(harness.delegate.locations.last?.coordinate == stop.offset(north: 200, east: 0))
    }
}
