import Foundation
import GPSReports
import GeoTrackTesting
import LocationKit
import Testing
@testable import GeoTrackCLI

@Suite("watch: from the service's Drivers to the status line")
struct WatchReducerTests {
    static let origin = Coordinate(latitude: 48.2, longitude: 16.37) ?? Coordinate(latitude: 0, longitude: 0)!

    static func location(second: Double, speed: Double, course: Double) throws -> Location {
        try #require(Location(fix: .synthetic(at: origin, second: second, speed: speed, course: course)))
    }

    static func shownHeading(_ updates: [TrackerUpdate]) -> Double?? {
        guard case .status(.fix(let summary))? = updates.first else { return .none }
        return .some(summary.heading)
    }

    @Test func whileMovingTheCourseIsTheHeading() throws {
        var reducer = WatchReducer(sourceName: "gpsd", failOnDisconnect: false)
        let moving = try Self.location(second: 0, speed: 3, course: 90)
        let course = Heading(trueHeading: 90, timestamp: moving.timestamp, source: .courseOverGround)
        #expect(Self.shownHeading(reducer.reduce(.status(.fix(mode: .threeD, location: moving), heading: course))) == .some(90))
        // Before the manager's heading for this fix has arrived, the course still shows while moving.
        let next = try Self.location(second: 1, speed: 3, course: 92)
        #expect(Self.shownHeading(reducer.reduce(.status(.fix(mode: .threeD, location: next), heading: course))) == .some(92))
    }

    @Test func standingStillShowsNoHeadingNotTheCourseOrAnOldOne() throws {
        var reducer = WatchReducer(sourceName: "gpsd", failOnDisconnect: false)
        let moving = try Self.location(second: 0, speed: 3, course: 90)
        let lastCourse = Heading(trueHeading: 90, timestamp: moving.timestamp, source: .courseOverGround)
        // Stopped: the receiver's course wanders, and the last course heading is from an earlier fix.
        let stopped = try Self.location(second: 5, speed: 0.2, course: 251)
        #expect(Self.shownHeading(reducer.reduce(.status(.fix(mode: .threeD, location: stopped), heading: lastCourse))) == .some(nil))
        #expect(Self.shownHeading(reducer.reduce(.status(.fix(mode: .threeD, location: stopped), heading: nil))) == .some(nil))
    }

    @Test func aSensorHeadingShowsEvenStandingStillWhileItIsRecent() throws {
        var reducer = WatchReducer(sourceName: "gpsd", failOnDisconnect: false)
        let stopped = try Self.location(second: 10, speed: 0, course: 0)
        let compass = Heading(trueHeading: 271, timestamp: stopped.timestamp.addingTimeInterval(-2), source: .sensor("HDT"))
        #expect(Self.shownHeading(reducer.reduce(.status(.fix(mode: .threeD, location: stopped), heading: compass))) == .some(271))
        let old = Heading(trueHeading: 271, timestamp: stopped.timestamp.addingTimeInterval(-30), source: .sensor("HDT"))
        #expect(Self.shownHeading(reducer.reduce(.status(.fix(mode: .threeD, location: stopped), heading: old))) == .some(nil))
    }

    @Test func aLostConnectionIsOneEventAndItsReturnAnother() {
        var reducer = WatchReducer(sourceName: "gpsd at localhost:2947", failOnDisconnect: false)
        let error = SourceError(.connectionClosed, message: "gpsd closed the connection")
        #expect(reducer.reduce(.receiver(.connected)) == [])
        #expect(reducer.reduce(.receiver(.disconnected(error))) == [.event(.disconnected("gpsd closed the connection"))])
        #expect(reducer.reduce(.receiver(.retrying(after: .seconds(1)))) == [])
        #expect(reducer.reduce(.receiver(.disconnected(error))) == [])
        #expect(reducer.reduce(.status(.gpsdUnreachable(retryingIn: .seconds(2)), heading: nil))
            == [.status(.gpsdUnreachable(reason: "gpsd closed the connection", retryingIn: .seconds(2)))])
        #expect(reducer.reduce(.receiver(.connected)) == [.event(.reconnected("gpsd at localhost:2947"))])
    }

    @Test func withNoRetryTheFirstDisconnectionEndsTheRun() {
        var reducer = WatchReducer(sourceName: "gpsd", failOnDisconnect: true)
        let error = SourceError(.connectionRefused, message: "nothing listens at 127.0.0.1:9")
        #expect(reducer.reduce(.receiver(.disconnected(error))) == [.failed(CLIError(error))])
    }

    @Test func staleShowsTheLastFixMarkedStale() throws {
        var reducer = WatchReducer(sourceName: "gpsd", failOnDisconnect: false)
        #expect(reducer.reduce(.status(.stale, heading: nil)) == [.status(.searching(seen: 0, used: 0))])
        let location = try Self.location(second: 0, speed: 3, course: 90)
        guard case .status(.fix(let summary))? = reducer.reduce(.status(.fix(mode: .threeD, location: location), heading: nil)).first else {
            Issue.record("no fix")
            return
        }
        #expect(reducer.reduce(.status(.stale, heading: nil)) == [.status(.stale(summary))])
    }
}
