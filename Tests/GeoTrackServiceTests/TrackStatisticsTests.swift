import Foundation
import GeoTrackService
import GeoTrackTesting
import GPSReports
import LocationKit
import Testing

/// The rules `geotrack stats` documents, on tracks whose answers are known.
@Suite struct TrackStatisticsTests {
    static let origin = Coordinate(latitude: 45, longitude: 7) ?? Coordinate(latitude: 0, longitude: 0)!

    /// A location `north` metres north of the origin at `second`, with a reported speed and altitude.
    static func at(_ north: Double, second: Double, speed: Double? = nil, altitude: Double? = 100) throws -> Location {
        try #require(Location(fix: .synthetic(at: origin.offset(north: north, east: 0), second: second, accuracy: 5,
                                              altitude: altitude, speed: speed)))
    }

    @Test("drive, stop ten minutes, drive: two trips, one stop with its times, moving time without the stop")
    func tripsAndStops() throws {
        var statistics = TrackStatistics()
        var north = 0.0
        var second = 0.0
        // 5 minutes at 10 m/s, a fix a second.
        for _ in 0..<300 { try statistics.add(Self.at(north, second: second, speed: 10)); north += 10; second += 1 }
        let stopStart = second
        // 10 minutes still, with 1 m of noise.
        for index in 0..<600 { try statistics.add(Self.at(north + Double(index % 2), second: second, speed: 0)); second += 1 }
        let stopEnd = second - 1
        for _ in 0..<120 { north += 10; try statistics.add(Self.at(north, second: second, speed: 10)); second += 1 }
        #expect(statistics.points == 1020)
        #expect(statistics.trips == 2)
        #expect(statistics.stops.count == 1)
        let stop = try #require(statistics.stops.first)
        // A stop spans the fixes within its 50 m: at 10 m/s, up to 5 s of the approach and the leaving.
        let arrival = stop.arrival.timeIntervalSince1970 - 1_735_689_600
        let departure = try #require(stop.departure).timeIntervalSince1970 - 1_735_689_600
        #expect(arrival >= stopStart - 6 && arrival <= stopStart, "\(arrival)")
        #expect(departure >= stopEnd && departure <= stopEnd + 5, "\(departure)")
        #expect(statistics.maximumSpeed == 10)
        // Driving is 299 + 1 + 120 intervals of 1 s; the stop's 1 m noise counts once before it
        // was recognised as a stop (at 1 m/s, above the moving threshold), never after.
        #expect(statistics.movingTime >= 420 && statistics.movingTime < 720, "\(statistics.movingTime)")
        #expect(abs(statistics.distance - (4200 + 600)) < 50, "\(statistics.distance)")
    }

    @Test("a gap of more than five minutes is neither moving time nor a trip's distance in time, but its distance counts")
    func gaps() throws {
        var statistics = TrackStatistics()
        try statistics.add(Self.at(0, second: 0))
        try statistics.add(Self.at(10, second: 1))
        try statistics.add(Self.at(3_000, second: 1_000))
        #expect(statistics.movingTime == 1)
        // The offsets are spherical metres; the distance is the ellipsoid's: within 0.1%.
        #expect(abs(statistics.distance - 3_000) < 3)
        #expect(statistics.duration == 1_000)
        // No reported speed: the fastest moving interval.
        #expect(abs((statistics.maximumSpeed ?? 0) - 10) < 0.01)
    }

    @Test("ascent and descent count changes of 5 m or more, so noise adds nothing")
    func climb() throws {
        var statistics = TrackStatistics()
        let altitudes = [100.0, 102, 99, 101, 100, 110, 108, 120, 117, 100, 103]
        for (index, altitude) in altitudes.enumerated() {
            try statistics.add(Self.at(Double(index), second: Double(index), altitude: altitude))
        }
        #expect(statistics.ascent == 20)
        #expect(statistics.descent == 20)
        #expect(statistics.south == Self.origin.latitude && (statistics.north ?? 0) > Self.origin.latitude)
    }
}
