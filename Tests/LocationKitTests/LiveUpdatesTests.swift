import Foundation
import GeoTrackTesting
import GPSReports
import Testing
@testable import LocationKit

/// `LocationUpdate.liveUpdates`: iOS 17's shape of location updates, on the existing manager.
@MainActor
@Suite(.timeLimit(.minutes(5)))
struct LiveUpdatesTests {
    /// The first `count` updates of one iteration; the iteration ends when this returns.
    static func first(_ count: Int, of updates: LocationUpdate.LiveUpdates) async -> [LocationUpdate] {
        var seen: [LocationUpdate] = []
        for await update in updates {
            seen.append(update)
            if seen.count == count { break }
        }
        return seen
    }

    /// Updates up to and including the first for which `last` holds.
    static func until(_ updates: LocationUpdate.LiveUpdates, _ last: (LocationUpdate) -> Bool) async -> [LocationUpdate] {
        var seen: [LocationUpdate] = []
        for await update in updates {
            seen.append(update)
            if last(update) { break }
        }
        return seen
    }

    /// Waits until the manager has forgotten every live session (the stop hops to the main actor).
    static func sessionsEnd(_ manager: LocationManager) async {
        while !manager.liveSessions.isEmpty { await Task.yield() }
    }

    @Test("iterating starts the source with no startUpdatingLocation, and ending the iteration stops it")
    func startsAndStops() async throws {
        let fixes = (0..<5).map { Fix.synthetic(at: .at(north: Double($0) * 100), second: Double($0)) }
        let harness = try Harness(fixes: fixes)
        let updates = await Self.first(3, of: LocationUpdate.liveUpdates(from: harness.manager))
        #expect(updates.compactMap(\.location).map(\.timestamp) == fixes.prefix(3).compactMap(\.time))
        #expect(updates.allSatisfy { !$0.isStationary && !$0.locationUnavailable && !$0.authorizationDenied })
        // The delegate's updates were never started: live updates are a consumer of their own.
        #expect(harness.delegate.locations.isEmpty)
        await Self.sessionsEnd(harness.manager)
        #expect(harness.manager.liveSessions.isEmpty)
        #expect(!harness.manager.needsSource)
    }

    @Test("a replay's updates end with the replay, after one locationUnavailable")
    func endsWithTheSource() async throws {
        let fixes = (0..<4).map { Fix.synthetic(at: .at(north: Double($0) * 100), second: Double($0)) }
        let harness = try Harness(fixes: fixes)
        var updates: [LocationUpdate] = []
        for await update in LocationUpdate.liveUpdates(from: harness.manager) { updates.append(update) }
        #expect(updates.compactMap(\.location).count == 4)
        #expect(updates.last?.locationUnavailable == true && updates.last?.location == nil)
        #expect(harness.manager.liveSessions.isEmpty)
    }

    @Test("a source that fails under a liveUpdates loop alone: the loop ends after locationUnavailable, and didFailWithError says why")
    func failureIsSaid() async throws {
        let missing = SourceError(.unreadableFile, message: "cannot replay /nonexistent.nmea: no such file")
        let harness = try Harness { _ in [.state(.disconnected(missing))] }
        var updates: [LocationUpdate] = []
        for await update in LocationUpdate.liveUpdates(from: harness.manager) { updates.append(update) }
        #expect(updates.last?.locationUnavailable == true)
        // Neither startUpdatingLocation nor a request ran: the loop's user learns why all the same.
        #expect(harness.delegate.errors == [.source(missing)])
    }

    @Test("access denied, restricted or undecided: an update that says so, and no location")
    func accessFlags() async throws {
        let denied = try Harness(fixes: [.synthetic(at: .at(north: 0))], status: .denied)
        let first = await Self.first(1, of: LocationUpdate.liveUpdates(from: denied.manager)).first
        #expect(first?.authorizationDenied == true && first?.location == nil)

        let restricted = try Harness({ _ in [] }, status: .authorizedAlways, policy: "deny\n")
        let second = await Self.first(1, of: LocationUpdate.liveUpdates(from: restricted.manager)).first
        #expect(second?.authorizationRestricted == true && second?.location == nil)

        let undecided = try Harness({ _ in [] }, status: nil)
        let third = await Self.first(1, of: LocationUpdate.liveUpdates(from: undecided.manager)).first
        #expect(third?.authorizationRequestInProgress == true && third?.location == nil)
    }

    @Test("no receiver: locationUnavailable once, then locations when one appears")
    func unavailable() async throws {
        let harness = try Harness { _ in
            [.state(.connected), .state(.receiverAbsent), .state(.receiverAbsent),
             .state(.receiverPresent), .fix(.synthetic(at: .at(north: 0), second: 0))]
        }
        let updates = await Self.first(2, of: LocationUpdate.liveUpdates(from: harness.manager))
        #expect(updates.first?.locationUnavailable == true && updates.first?.location == nil)
        #expect(updates.last?.location != nil && updates.last?.locationUnavailable == false)
    }

    @Test("staying put: one stationary update, then nothing until the device moves again")
    func stationary() async throws {
        // 25 m radius, 120 s: three minutes within a metre or two, then walking away.
        var fixes = (0...180).map { Fix.synthetic(at: .at(north: Double($0 % 3)), second: Double($0)) }
        fixes += (1...3).map { Fix.synthetic(at: .at(north: Double($0) * 200), second: 180 + Double($0)) }
        let harness = try Harness(fixes: fixes)
        let end = fixes.last?.time
        let updates = await Self.until(LocationUpdate.liveUpdates(.default, from: harness.manager)) { $0.location?.timestamp == end }
        let stationary = updates.filter(\.isStationary)
        #expect(stationary.count == 1)
        #expect(stationary.first?.stationary == true)
        let index = try #require(updates.firstIndex(where: { $0.isStationary }))
        // Every fix until the stay reached two minutes, in order; then only the three away.
        let before = updates[..<index].compactMap(\.location?.timestamp)
        #expect(before == fixes.prefix(before.count).compactMap(\.time))
        let settled = try #require(updates[index].location?.timestamp.timeIntervalSince1970)
        #expect(settled - 1_735_689_600 >= 120 && settled - 1_735_689_600 <= 122)
        #expect(updates[(index + 1)...].compactMap(\.location).map(\.timestamp) == fixes.suffix(3).compactMap(\.time))
    }

    @Test("configurations filter for their activity: fitness drops poor fixes, airborne is never stationary")
    func configurations() async throws {
        let accuracies: [Double?] = [5, 30, nil, 15, 50]
        let fixes = accuracies.enumerated().map { Fix.synthetic(at: .at(north: Double($0.offset) * 100), second: Double($0.offset), accuracy: $0.element) }
        let fitness = try Harness(fixes: fixes)
        let kept = await Self.first(2, of: LocationUpdate.liveUpdates(.fitness, from: fitness.manager))
        #expect(kept.compactMap(\.location?.horizontalAccuracy) == [5, 15])

        let parked = (0...200).map { Fix.synthetic(at: .at(north: 0), second: Double($0), accuracy: 5) }
        let airborne = try Harness(fixes: parked)
        let flying = await Self.first(201, of: LocationUpdate.liveUpdates(.airborne, from: airborne.manager))
        #expect(!flying.contains(where: { $0.isStationary }))
        #expect(flying.count == 201)
        #expect(LocationUpdate.LiveConfiguration.automotiveNavigation.accuracyFilter == 50)
    }
}
