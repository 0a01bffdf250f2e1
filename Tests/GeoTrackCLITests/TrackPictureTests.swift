import Foundation
import GeoTrackService
import GeoTrackTesting
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

    @Test("a passage across the 180th meridian is drawn as the same passage 10° west of it: no line across the globe")
    func antimeridian() throws {
        func picture(_ meridian: Double) throws -> String {
            var picture = TrackPicture()
            var statistics = TrackStatistics()
            for fix in Fix.passage(across: meridian) {
                let location = try #require(Location(fix: fix))
                picture.add(location)
                statistics.add(location)
            }
            return try #require(picture.svg(statistics: statistics, units: .nautical, title: "passage"))
        }
        let across = try picture(180), beside = try picture(170)
        // Both fill the picture the same way, with the same scale bar and the stop on the line.
        #expect(across == beside)
        #expect(Self.scaleLabel(across) != nil)
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
        let svg = try #require(picture.svg(statistics: TrackStatistics(), units: .metric, title: "long"))
        #expect(svg.hasPrefix("<?xml") || svg.hasPrefix("<svg"))
    }

    /// The scale bar's label in `svg`.
    static func scaleLabel(_ svg: String) -> String? {
        svg.components(separatedBy: "<g class=\"scale\">").dropFirst().first?
            .components(separatedBy: "text-anchor=\"middle\">").dropFirst().first?.prefix { $0 != "<" }.description
    }

    @Test("the scale bar is a round, non-zero length in the unit a chart of that size uses: metres at anchor on a nautical chart, nmi on passage, ft then mi, m then km",
          arguments: [(40.0, Units.nautical, "20 m"), (40, .imperial, "100 ft"), (40, .metric, "20 m"),
                      (3_000, .nautical, "0.2 nmi"), (20_000, .nautical, "2 nmi"), (200_000, .nautical, "20 nmi"),
                      (20_000, .imperial, "2 mi"), (20_000, .metric, "2 km")])
    func scaleBarUnits(extent: Double, units: Units, label: String) throws {
        var picture = TrackPicture()
        for step in 0...10 {
            picture.add(try #require(Self.location(second: Double(step), metres: extent * Double(step) / 10, speed: 1)))
        }
        let svg = try #require(picture.svg(statistics: TrackStatistics(), units: units, title: "scale"))
        #expect(Self.scaleLabel(svg) == label, "\(extent) m in \(units): \(Self.scaleLabel(svg) ?? "no scale bar")")
    }

    /// A location at `second` (of any day), `metres` east along the equator, with a speed the
    /// receiver reported (with a course) or one gpsd derived (without).
    static func location(second: Double, metres: Double, speed: Double, reported: Bool = true) -> Location? {
        var fix = Fix(mode: .threeD, time: Date(timeIntervalSince1970: 1_700_000_000 + second))
        fix.latitude = 0
        fix.longitude = metres / 111_319.49
        fix.speed = speed
        fix.track = reported ? 90 : nil
        return Location(fix: fix, sky: nil)
    }

    /// The points of each track polyline in `svg`.
    static func runs(_ svg: String) -> [Int] {
        svg.components(separatedBy: "<polyline class=\"track\" points=\"").dropFirst().map {
            $0.prefix { $0 != "\"" }.split(separator: " ").count
        }
    }

    @Test("a clock that steps back, or a gap, breaks the line: no jump is drawn as travelled, even after thinning")
    func gapsBreakTheLine() throws {
        var picture = TrackPicture()
        var statistics = TrackStatistics()
        // Ten seconds east at 10 m/s; then the clock steps back a day and the track goes on 1 km
        // further east; then a ten-minute gap.
        var locations: [Location] = []
        for second in 0..<10 { locations.append(try #require(Self.location(second: Double(second), metres: Double(second) * 10, speed: 10))) }
        for second in 0..<10 { locations.append(try #require(Self.location(second: Double(second) - 86_400, metres: 1_000 + Double(second) * 10, speed: 10))) }
        for second in 0..<10 { locations.append(try #require(Self.location(second: 600 + Double(second), metres: 2_000 + Double(second) * 10, speed: 10))) }
        for location in locations {
            picture.add(location)
            statistics.add(location)
        }
        let svg = try #require(picture.svg(statistics: statistics, units: .metric, title: "steps"))
        // One colour throughout: three runs of ten points, never one of thirty.
        #expect(Self.runs(svg) == [10, 10, 10], "\(Self.runs(svg))")

        // Thinned: a break before a dropped point moves to the next point kept.
        var long = TrackPicture()
        let count = TrackPicture.maximumPoints * 2 + 1
        for second in 0..<count {
            // The clock steps back a day at an odd place, which the first thinning drops.
            let day = second >= 5_001 ? -86_400.0 : 0
            long.add(try #require(Self.location(second: Double(second) + day, metres: Double(second) * 10, speed: 10)))
        }
        #expect(Self.runs(try #require(long.svg(statistics: TrackStatistics(), units: .metric, title: "long"))).count == 2)
    }

    @Test("the colour scale is the statistics' maximum: a speed gpsd derived from noisy positions does not stretch it")
    func scaleIsTheReportedMaximum() throws {
        var picture = TrackPicture()
        var statistics = TrackStatistics()
        for second in 0..<20 {
            let reported = try #require(Self.location(second: Double(second), metres: Double(second) * 2, speed: 2))
            // gpsd's derived speed for a second report of the cycle, from a position 40 m off.
            let derived = try #require(Self.location(second: Double(second) + 0.5, metres: Double(second) * 2 + 40, speed: 80, reported: false))
            for location in [reported, derived] {
                picture.add(location)
                statistics.add(location)
            }
        }
        #expect(statistics.maximumSpeed == 2)
        let svg = try #require(picture.svg(statistics: statistics, units: .metric, title: "walk"))
        // The legend's right end is the scale's top: 7.2 km/h, not 288.
        #expect(svg.contains(">7.2 km/h</text>"), "\(svg.components(separatedBy: "km/h").count)")
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
