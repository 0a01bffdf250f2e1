import Foundation
import GeoTrackTesting
import GPSReports
import LocationKit
import Testing

@MainActor
@Suite struct HeadingTests {
    @Test func courseOverGroundIsNotAHeadingWhenSlow() async throws {
        let fixes = [
            Fix.synthetic(at: .at(north: 0), second: 0, speed: 0.3, course: 90),
            Fix.synthetic(at: .at(north: 0.3), second: 1, speed: 0.9, course: 200),
            Fix.synthetic(at: .at(north: 5), second: 2, speed: 5, course: 45),
        ]
        let harness = try Harness(fixes: fixes)
        let headings = harness.manager.rx.didUpdateHeading
        harness.manager.startUpdatingHeading()
        let first = await headings.firstElements(1).first
        #expect(first?.trueHeading == 45)
        #expect(first?.source == .courseOverGround)
        #expect(harness.delegate.headings.count == 1)
    }

    @Test func sensorHeadingWinsOverCourseAndFilterApplies() async throws {
        func attitude(_ heading: Double, _ second: Double) -> ScriptedLocationSource.Step {
            var attitude = Attitude(time: Date(timeIntervalSince1970: 1_735_689_600 + second), heading: heading)
            attitude.source = "HDT"
            return .event(.report(.attitude(attitude)))
        }
        let harness = try Harness { _ in
            [.state(.receiverPresent), attitude(10, 0), attitude(10.5, 1), attitude(12, 2),
             .fix(.synthetic(at: .at(north: 0), second: 3, speed: 10, course: 180)),   // sensor reported 1 s ago: ignored
             .fix(.synthetic(at: .at(north: 50), second: 20, speed: 10, course: 181))] // sensor silent for 18 s: course used
        }
        harness.manager.headingFilter = 1
        let headings = harness.manager.rx.didUpdateHeading
        harness.manager.startUpdatingHeading()
        let received = await headings.firstElements(3)
        #expect(received.map(\.trueHeading) == [10, 12, 181])
        #expect(received.map(\.source) == [.sensor("HDT"), .sensor("HDT"), .courseOverGround])
        #expect(harness.manager.heading == received.last)
    }

    @Test func headingRejectsInvalidAngles() {
        #expect(Heading(trueHeading: .nan, magneticHeading: nil, timestamp: Date(), source: .courseOverGround) == nil)
        #expect(Heading(trueHeading: -90, timestamp: Date(), source: .courseOverGround)?.trueHeading == 270)
        #expect(Heading(trueHeading: nil, magneticHeading: 12, headingAccuracy: -1, timestamp: Date(), source: .sensor(nil))?.headingAccuracy == nil)
    }

    @Test func noHeadingsWithoutStartingHeadingUpdates() async throws {
        let harness = try Harness(fixes: [.synthetic(at: .at(north: 0), second: 0, speed: 10, course: 45)])
        let statuses = harness.manager.rx.didChangeReceiverStatus
        harness.manager.startUpdatingLocation()
        _ = await statuses.firstMatching { $0.sourceState == .finished }
        #expect(harness.delegate.headings.isEmpty)
        #expect(harness.delegate.locations.count == 1)
    }
}
