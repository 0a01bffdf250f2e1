import Testing
import GPSReports
import Foundation

@Suite struct CoordinateTests {
    @Test func rejectsNaNAndOutOfRange() {
        #expect(Coordinate(latitude: .nan, longitude: 0) == nil)
        #expect(Coordinate(latitude: 0, longitude: .infinity) == nil)
        #expect(Coordinate(latitude: 90.000001, longitude: 0) == nil)
        #expect(Coordinate(latitude: 0, longitude: -180.1) == nil)
        #expect(Coordinate(latitude: -90, longitude: 180) != nil)
    }

    @Test func distanceMatchesKnownValue() throws {
        // One degree of latitude along a meridian is about 111.2 km on the mean sphere.
        let a = try #require(Coordinate(latitude: 0, longitude: 0))
        let b = try #require(Coordinate(latitude: 1, longitude: 0))
        #expect(abs(a.distance(to: b) - 111_195) < 5)
        #expect(a.distance(to: a) == 0)
    }

    @Test func fixIsAPositionOnlyWithModeTimeAndCoordinates() {
        var fix = Fix(mode: .threeD, time: Date(timeIntervalSince1970: 1_700_000_000))
        #expect(fix.coordinate == nil)
        fix.latitude = 44.0689
        fix.longitude = -121.3142
        #expect(fix.coordinate == Coordinate(latitude: 44.0689, longitude: -121.3142))
        fix.mode = .noFix
        #expect(!fix.hasPosition)
        fix.mode = .twoD
        fix.time = nil
        #expect(!fix.hasPosition)
        fix.time = Date(timeIntervalSince1970: 0)
        fix.latitude = .nan
        #expect(!fix.hasPosition)
    }

    @Test func skyViewCountsListedUsedSatellitesFirst() {
        var sky = SkyView(satellites: [Satellite(prn: 1, used: true), Satellite(prn: 2), Satellite(prn: 3, used: true)])
        sky.reportedUsedCount = 9
        #expect(sky.seen == 3)
        #expect(sky.used == 2)
        sky.satellites = []
        #expect(sky.used == 9)
    }
}
