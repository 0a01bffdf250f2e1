import Foundation
import GeoTrackService
import GeoTrackTesting
import GPSReports
import LocationKit
import Testing

/// The rules `geotrack stats` documents, on tracks whose answers are known.
@Suite struct TrackStatisticsTests {
    static let origin = Coordinate(latitude: 45, longitude: 7) ?? Coordinate(latitude: 0, longitude: 0)!

    /// A location `north` metres north of the origin at `second`, with an altitude, and a speed the
    /// receiver reported (with its course, as receivers report it) or one gpsd derived (without).
    static func at(_ north: Double, second: Double, speed: Double? = nil, derived: Bool = false, accuracy: Double? = 5,
                   altitude: Double? = 100) throws -> Location {
        try #require(Location(fix: .synthetic(at: origin.offset(north: north, east: 0), second: second, accuracy: accuracy,
                                              altitude: altitude, speed: speed, course: speed == nil || derived ? nil : 0)))
    }

    /// ``Fix/passage(across:)`` as locations.
    static func passage(across meridian: Double) throws -> [Location] {
        try Fix.passage(across: meridian).map { try #require(Location(fix: $0)) }
    }

    @Test("a passage across the 180th meridian sums up as one 10° west of it: its stop there, its area across it, its distance")
    func antimeridian() throws {
        var across = TrackStatistics(), beside = TrackStatistics()
        for location in try Self.passage(across: 180) { across.add(location) }
        for location in try Self.passage(across: 170) { beside.add(location) }
        #expect(beside.stops.count == 1)
        #expect(across.stops.count == beside.stops.count)
        let stop = try #require(across.stops.first)
        // On the meridian, not on the far side of the globe (the mean of 179.9999 and -179.9999).
        #expect(abs(abs(stop.center.longitude) - 180) < 0.001, "\(stop.center)")
        #expect(abs(across.distance - beside.distance) < 1, "\(across.distance) against \(beside.distance)")
        #expect(across.trips == beside.trips)
        // The area spans the meridian: its west edge east of it, its east edge west of it.
        let west = try #require(across.west), east = try #require(across.east)
        let besideWest = try #require(beside.west), besideEast = try #require(beside.east)
        #expect(abs(west - (besideWest + 10)) < 1e-9 && abs(east - (besideEast + 10 - 360)) < 1e-9, "\(west) to \(east)")
    }

    @Test("a track round the globe covers every longitude")
    func roundTheGlobe() throws {
        var statistics = TrackStatistics()
        for step in 0...40 {
            let coordinate = try #require(Coordinate(latitude: 0, longitude: Coordinate.normalizedLongitude(Double(step) * 10)))
            let fix = Fix.synthetic(at: coordinate, second: Double(step) * 3600, speed: 300, course: 90)
            statistics.add(try #require(Location(fix: fix)))
        }
        #expect(statistics.west == -180 && statistics.east == 180)
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
        // Driving is 299 + 1 + 1 + 119 intervals of 1 s (into and out of the stop at an average
        // 5 m/s, the way out counted although it starts within the stop's radius, as the receiver
        // says it moves); it says 0 m/s at the stop, so its 1 m of noise is neither moving time
        // nor distance.
        #expect(statistics.movingTime == 420, "\(statistics.movingTime)")
        // 4 199 m north (the last fix of the stop is 1 m further): spherical metres, within 0.1%
        // of the ellipsoid's.
        #expect(abs(statistics.distance - 4_199) < 5, "\(statistics.distance)")
        #expect(try #require(statistics.averageMovingSpeed) <= 10)
    }

    @Test("a boat swinging at anchor for an hour (the receiver reports 0.66 m/s round a 30 m circle): one stop from the start to the end, and no trip")
    func swingingAtAnchor() throws {
        var statistics = TrackStatistics()
        for second in 0..<3600 {
            // Round a circle of 15 m radius, once every 140 s: 0.67 m/s, above the moving speed.
            let angle = Double(second) / 140 * 2 * .pi
            let location = try #require(Location(fix: .synthetic(at: Self.origin.offset(north: 15 * cos(angle), east: 15 * sin(angle)),
                                                                 second: Double(second), accuracy: 3, speed: 0.67,
                                                                 course: (angle * 180 / .pi + 90).truncatingRemainder(dividingBy: 360))))
            statistics.add(location)
        }
        #expect(statistics.stops.count == 1)
        #expect(statistics.stops.first?.arrival == statistics.first?.timestamp && statistics.stops.first?.departure == nil)
        #expect(statistics.trips == 0, "\(statistics.trips) trips within a stop that lasted the whole track")
    }

    @Test("a glider circling in a thermal for 8 minutes (20 m round at 10 m/s) makes no stop, and is moving all the while")
    func circlingGlider() throws {
        var statistics = TrackStatistics()
        for tenth in 0..<4800 {
            let second = Double(tenth) / 10
            let angle = second * 10 / 20
            let location = try #require(Location(fix: .synthetic(at: Self.origin.offset(north: 20 * cos(angle), east: 20 * sin(angle)),
                                                                 second: second, accuracy: 3, altitude: 1000 + 2 * second, speed: 10,
                                                                 course: (angle * 180 / .pi + 90).truncatingRemainder(dividingBy: 360))))
            statistics.add(location)
        }
        #expect(statistics.stops.isEmpty, "\(statistics.stops)")
        #expect(statistics.trips == 1)
        #expect(abs(statistics.movingTime - 479.9) < 0.01, "\(statistics.movingTime)")
    }

    @Test("a later report of the last time takes its place, as in the GPX track: the summary is that of each time's final report")
    func laterReportReplaces() throws {
        // gpsd's cycle as a GGA-first receiver makes it: each time reported first with the GGA's
        // position and a speed gpsd derived (no course), then again with the RMC's speed and
        // course; here the first report is also off by 3 m, so it cannot pass unnoticed.
        var reported = TrackStatistics()
        var finals = TrackStatistics()
        for second in 0..<120 {
            let north = Double(second) * (second < 60 ? 1.5 : 0.2)
            let speed = second < 60 ? 1.5 : 0.2
            let final = try Self.at(north, second: Double(second), speed: speed, altitude: 100 + Double(second) * 0.25)
            if second > 0 {
                reported.add(try Self.at(north + 3, second: Double(second), speed: 4.5, derived: true, altitude: 90))
            }
            reported.add(final)
            finals.add(final)
        }
        // A third report of one time replaces again.
        reported.add(try Self.at(179, second: 119, speed: 0.2, altitude: 129.75))
        finals.add(try Self.at(179, second: 119, speed: 0.2, altitude: 129.75))
        #expect(reported.points == 120)
        #expect(reported.points == finals.points)
        #expect(reported.duration == finals.duration)
        #expect(reported.movingTime == finals.movingTime)
        #expect(reported.distance == finals.distance, "\(reported.distance) m, each time's final report alone \(finals.distance) m")
        #expect(reported.maximumSpeed == finals.maximumSpeed)
        #expect(reported.ascent == finals.ascent && reported.descent == finals.descent)
        #expect(reported.south == finals.south && reported.north == finals.north)
        #expect(reported.trips == finals.trips && reported.stops == finals.stops)
        #expect(reported.last?.coordinate == finals.last?.coordinate)
    }

    @Test("a gap of more than five minutes is neither moving time nor distance, but counts in the duration")
    func gaps() throws {
        var statistics = TrackStatistics()
        try statistics.add(Self.at(0, second: 0))
        try statistics.add(Self.at(10, second: 1))
        try statistics.add(Self.at(3_000, second: 1_000))
        #expect(statistics.movingTime == 1)
        // The offsets are spherical metres; the distance is the ellipsoid's: within 0.1%. The
        // 2 990 m jump across the gap was not seen being covered, and is not counted.
        #expect(abs(statistics.distance - 10) < 0.01)
        #expect(statistics.duration == 1_000)
        // No reported speed: the fastest moving interval.
        #expect(abs((statistics.maximumSpeed ?? 0) - 10) < 0.01)
        #expect(try #require(statistics.averageMovingSpeed) <= (statistics.maximumSpeed ?? 0))
    }

    @Test("a clock that steps back never makes the duration negative: the step is a gap, not movement")
    func timeStepsBack() throws {
        var statistics = TrackStatistics()
        try statistics.add(Self.at(0, second: 100, speed: 10))
        try statistics.add(Self.at(10, second: 101, speed: 10))
        try statistics.add(Self.at(20, second: 102, speed: 10))
        // The receiver's clock jumps back a day (a week rollover, a log joined to an older one).
        try statistics.add(Self.at(30, second: 102 - 86_400, speed: 10))
        try statistics.add(Self.at(40, second: 103 - 86_400, speed: 10))
        #expect(statistics.duration == 3)
        #expect(statistics.movingTime == 3)
        #expect(abs(statistics.distance - 30) < 0.05)
        #expect(statistics.points == 5)
    }

    @Test("time is counted once: one fix at the 1980 epoch between two of today's adds no 44 years; a log played twice counts once; an older log after a newer one counts both")
    func timeCountedOnce() throws {
        let epoch1980 = 315_964_800.0 - 1_735_689_600
        var restart = TrackStatistics()
        for (east, second) in [(0.0, 0.0), (1, 1), (2, epoch1980), (3, 2), (4, 3)] {
            try restart.add(Self.at(east, second: second, speed: 1))
        }
        #expect(restart.duration == 3)
        var twice = TrackStatistics()
        for second in [0.0, 1, 2, 0, 1, 2] { try twice.add(Self.at(second, second: second, speed: 1)) }
        #expect(twice.duration == 2)
        var joined = TrackStatistics()
        for second in [100.0, 101, 102, 0, 1, 2] { try joined.add(Self.at(second, second: second, speed: 1)) }
        #expect(joined.duration == 4)
    }

    @Test("standing still, jitter adds nothing: with the receiver's speed, or without it, within the positions' error")
    func jitterAtRest() throws {
        // The receiver says 0.1 m/s while its position wanders 3 m each second.
        var reported = TrackStatistics()
        for second in 0..<200 { try reported.add(Self.at(Double(second % 2) * 3, second: Double(second), speed: 0.1)) }
        #expect(reported.distance == 0)
        #expect(reported.movingTime == 0)
        #expect(reported.averageMovingSpeed == nil)
        // No speed at all; the receiver's error is 5 m, and the wander stays inside it.
        var positions = TrackStatistics()
        for second in 0..<200 { try positions.add(Self.at(Double(second % 2) * 3, second: Double(second))) }
        #expect(positions.distance == 0)
        #expect(positions.trips == 0)
    }

    @Test("the maximum is a speed the receiver reported, never one gpsd derived between erring positions; the average never exceeds it")
    func maximumIsReported() throws {
        var statistics = TrackStatistics()
        var north = 0.0
        for second in 0..<60 {
            // A walk at 1.5 m/s, each fix reported twice as gpsd does for RMC then GGA: the RMC's
            // speed with its course, the GGA's derived from a position 40 m off (error ±400 m).
            north += 1.5
            try statistics.add(Self.at(north, second: Double(second), speed: 1.5, accuracy: 400))
            try statistics.add(Self.at(north + (second % 2 == 0 ? 40 : -40), second: Double(second) + 0.5,
                                       speed: 80, derived: true, accuracy: 400))
        }
        #expect(statistics.maximumSpeed == 1.5)
        let average = try #require(statistics.averageMovingSpeed)
        #expect(average <= 1.5)
        // Each half second counts at most what 1.5 m/s covers: the 40 m swings are error.
        #expect(statistics.distance <= 1.5 * 59.5 + 0.01, "\(statistics.distance)")
        #expect(statistics.distance >= 1.5 * 59 * 0.99, "\(statistics.distance)")
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
