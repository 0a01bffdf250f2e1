import Foundation
import GeoTrackTesting
import GPSReports
import LocationKit
import Testing

@MainActor
@Suite struct VisitTests {
    @Test func syntheticStopIsAVisitWithArrivalAndDeparture() async throws {
        var fixes: [Fix] = []
        var second = 0.0
        for step in 0..<5 { fixes.append(.synthetic(at: .at(north: Double(step) * 500), second: second)); second += 60 }
        let cafe = Coordinate.at(north: 2500, east: 0)
        let arrival = second
        let jitter: [(Double, Double)] = [(0, 0), (5, 3), (-4, 6), (8, -2), (-6, -5), (2, 9), (-9, 1), (4, -7), (1, 2), (-3, 4)]
        for (north, east) in jitter { fixes.append(.synthetic(at: cafe.offset(north: north, east: east), second: second)); second += 60 }
        let departure = second - 60
        for step in 1...3 { fixes.append(.synthetic(at: cafe.offset(north: Double(step) * 400, east: 0), second: second)); second += 60 }

        let harness = try Harness(fixes: fixes)
        harness.manager.visitRadius = 50
        harness.manager.visitDwellTime = .seconds(300)
        let visits = harness.manager.rx.didVisit
        harness.manager.startMonitoringVisits()
        let received = await visits.firstElements(2)

        let base = 1_735_689_600.0
        #expect(received.count == 2)
        #expect(received.first?.arrivalDate == Date(timeIntervalSince1970: base + arrival))
        #expect(received.first?.departureDate == nil)
        #expect(received.last?.arrivalDate == Date(timeIntervalSince1970: base + arrival))
        #expect(received.last?.departureDate == Date(timeIntervalSince1970: base + departure))
        let centre = try #require(received.last?.coordinate)
        #expect(centre.distance(to: cafe) < 5)
        #expect(harness.delegate.events.filter { if case .visit = $0 { true } else { false } }.count == 2)
    }

    /// gpsd 3.25 and later send a TPV per sentence, each repeating its cycle's time, where 3.22
    /// sent one per cycle: each fix's second report completes it, and the visits are the same.
    @Test func aFixReportedTwiceCountsOnceInTheVisit() async throws {
        var fixes: [Fix] = []
        var second = 0.0
        for step in 0..<3 { fixes.append(.synthetic(at: .at(north: Double(step) * 500), second: second)); second += 60 }
        let cafe = Coordinate.at(north: 1500, east: 0)
        let jitter: [(Double, Double)] = [(0, 0), (5, 3), (-4, 6), (8, -2), (-6, -5), (2, 9), (-9, 1), (4, -7)]
        for (north, east) in jitter { fixes.append(.synthetic(at: cafe.offset(north: north, east: east), second: second)); second += 60 }
        fixes.append(.synthetic(at: cafe.offset(north: 400, east: 0), second: second))

        func visits(of fixes: [Fix]) async throws -> [Visit] {
            let harness = try Harness(fixes: fixes)
            harness.manager.visitRadius = 50
            harness.manager.visitDwellTime = .seconds(300)
            let visits = harness.manager.rx.didVisit
            harness.manager.startMonitoringVisits()
            return await visits.firstElements(2)
        }
        let once = try await visits(of: fixes)
        let twice = try await visits(of: fixes.flatMap { [$0, $0] })
        try #require(once.count == 2)
        // Counted twice, the fixes before the arrival weighed double against the one that made it
        // a visit, and the arrival's centre moved (the departure's did not: every fix doubled).
        #expect(twice.map(\.coordinate) == once.map(\.coordinate))
        #expect(twice.map(\.arrivalDate) == once.map(\.arrivalDate))
        #expect(twice.map(\.departureDate) == once.map(\.departureDate))
    }

    @Test func shortStopIsNotAVisit() async throws {
        var fixes: [Fix] = []
        for index in 0..<4 { fixes.append(.synthetic(at: .at(north: 1000), second: Double(index) * 60)) } // 3 minutes
        fixes.append(.synthetic(at: .at(north: 2000), second: 240))
        let harness = try Harness(fixes: fixes)
        harness.manager.visitDwellTime = .seconds(300)
        let statuses = harness.manager.rx.didChangeReceiverStatus
        harness.manager.startMonitoringVisits()
        _ = await statuses.firstMatching { $0.sourceState == .finished }
        #expect(!harness.delegate.events.contains { if case .visit = $0 { true } else { false } })
    }
}
