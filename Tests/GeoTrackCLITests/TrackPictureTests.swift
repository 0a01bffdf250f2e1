import Foundation
import GeoTrackService
import GPSReports
import LocationKit
import Testing
@testable import GeoTrackCLI

@Suite("The track picture's memory")
struct TrackPictureTests {
    /// A location `second` seconds in, heading east along the equator at 10 m/s.
    static func location(_ second: Int) -> Location? {
        var fix = Fix(mode: .threeD, time: Date(timeIntervalSince1970: 1_700_000_000 + Double(second)))
        fix.latitude = 0
        fix.longitude = Double(second) * 10 / 111_319.49
        fix.speed = 10
        return Location(fix: fix, sky: nil)
    }

    @Test("a run of months keeps at most maximumPoints points, evenly thinned, and still draws its first and newest location")
    func bounded() throws {
        var picture = TrackPicture()
        let count = TrackPicture.maximumPoints * 5 + 3
        for second in 0..<count {
            picture.add(try #require(Self.location(second)))
        }
        #expect(picture.points.count < TrackPicture.maximumPoints)
        #expect(picture.points.count > TrackPicture.maximumPoints / 2)
        let drawn = picture.drawnPoints
        #expect(drawn.first?.longitude == Self.location(0)?.coordinate.longitude)
        #expect(drawn.last?.longitude == Self.location(count - 1)?.coordinate.longitude)
        // Evenly spaced: every kept point is the same number of locations after the one before.
        let steps = Set(zip(picture.points, picture.points.dropFirst()).map {
            (($1.longitude - $0.longitude) * 111_319.49 / 10).rounded()
        })
        #expect(steps == [8])
        let svg = picture.svg(statistics: TrackStatistics(), units: .metric, title: "long")
        #expect(svg.hasPrefix("<?xml") || svg.hasPrefix("<svg"))
    }

    @Test("below the limit every location is kept")
    func keepsAll() throws {
        var picture = TrackPicture()
        for second in 0..<100 {
            picture.add(try #require(Self.location(second)))
        }
        #expect(picture.points.count == 100)
        #expect(picture.drawnPoints.count == 100)
    }
}
