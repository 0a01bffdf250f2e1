import FoundationEssentials
import GeoTrackService
import GPSReports
import LocationKit
#if canImport(Glibc)
import Glibc
#endif

/// A track's statistics as text for people (one `name  value` line each) or as one JSON object.
package enum StatisticsReport {
    /// The summary as aligned lines, in the chosen units and coordinate notation.
    package static func lines(_ statistics: TrackStatistics, units: Units, format: CoordinateFormat) -> [String] {
        // A run that ended before its first position (Ctrl-C while searching, a log without a
        // fix): a column of zeros would read as a track that went nowhere.
        guard statistics.points > 0 else { return ["points  0 (no position with a time to sum up)"] }
        var rows: [(String, String)] = [("points", "\(statistics.points)")]
        if let first = statistics.first, let last = statistics.last {
            rows.append(("first fix", UTCText.timestamp(first.timestamp) + "  " + format.format(first.coordinate)))
            rows.append(("last fix", UTCText.timestamp(last.timestamp) + "  " + format.format(last.coordinate)))
        }
        if let duration = statistics.duration { rows.append(("duration", Self.duration(duration))) }
        rows.append(("moving time", Self.duration(statistics.movingTime)))
        rows.append(("distance", distance(statistics.distance, units: units)))
        if let maximum = statistics.maximumSpeed { rows.append(("max speed", units.speed(maximum))) }
        if let average = statistics.averageMovingSpeed { rows.append(("avg speed", units.speed(average) + " (moving)")) }
        rows.append(("ascent", units.length(statistics.ascent)))
        rows.append(("descent", units.length(statistics.descent)))
        if let south = statistics.south, let west = statistics.west, let north = statistics.north, let east = statistics.east,
           let southWest = Coordinate(latitude: south, longitude: west), let northEast = Coordinate(latitude: north, longitude: east) {
            rows.append(("area", format.format(southWest) + " to " + format.format(northEast)))
        }
        rows.append(("trips", "\(statistics.trips)"))
        rows.append(("stops", "\(statistics.stops.count) (5 min or more within \(units.length(TrackStatistics.stopRadius)))"))
        for stop in statistics.stops {
            let until = stop.departure.map { " to " + UTCText.timestamp($0) } ?? " to the end"
            rows.append(("  stop", format.format(stop.center) + "  " + UTCText.timestamp(stop.arrival) + until))
        }
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { $0.0.padded(to: width) + "  " + $0.1 }
    }

    /// The summary as one JSON object, in SI units; what is unknown is left out.
    package static func json(_ statistics: TrackStatistics, file: String? = nil) -> String {
        var summary = Summary(points: statistics.points, distance: rounded(statistics.distance),
                              moving: rounded(statistics.movingTime), ascent: rounded(statistics.ascent),
                              descent: rounded(statistics.descent), trips: statistics.trips, file: file)
        summary.first = statistics.first.map { UTCText.timestamp($0.timestamp) }
        summary.last = statistics.last.map { UTCText.timestamp($0.timestamp) }
        summary.duration = statistics.duration.map(rounded)
        summary.maximumSpeed = statistics.maximumSpeed.map(rounded)
        summary.averageMovingSpeed = statistics.averageMovingSpeed.map(rounded)
        if let south = statistics.south, let west = statistics.west, let north = statistics.north, let east = statistics.east {
            summary.bbox = BoundingBox(south: degrees(south), west: degrees(west), north: degrees(north), east: degrees(east))
        }
        summary.stops = statistics.stops.map { stop in
            Summary.Stop(lat: degrees(stop.center.latitude), lon: degrees(stop.center.longitude),
                         arrival: UTCText.timestamp(stop.arrival), departure: stop.departure.map(UTCText.timestamp))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Every value is finite by construction (nil stands for unknown), so this cannot fail.
        let data = (try? encoder.encode(summary)) ?? Data("{}".utf8)
        return String(decoding: JSONWriter.escapingControls(data), as: UTF8.self)
    }

    /// The JSON object's fields; optionals that are nil are left out.
    private struct Summary: Encodable {
        struct Stop: Encodable {
            var lat: Double, lon: Double, arrival: String, departure: String?
        }
        var points: Int, distance: Double, moving: Double, ascent: Double, descent: Double, trips: Int
        var file: String?
        var first: String?, last: String?
        var duration: Double?, maximumSpeed: Double?, averageMovingSpeed: Double?
        var bbox: BoundingBox?
        var stops: [Stop] = []

        enum CodingKeys: String, CodingKey {
            case points, trips, file, first, last, bbox, stops
            case distance = "distance_m", moving = "moving_s", ascent = "ascent_m", descent = "descent_m"
            case duration = "duration_s", maximumSpeed = "max_speed_mps", averageMovingSpeed = "avg_moving_speed_mps"
        }
    }

    private struct BoundingBox: Encodable {
        var south: Double, west: Double, north: Double, east: Double
    }

    /// `1 h 02 min 03 s`, `4 min 05 s`, `7 s`.
    static func duration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let hours = total / 3600, minutes = total % 3600 / 60, rest = total % 60
        if hours > 0 { return "\(hours) h " + NumberText.padded(minutes, digits: 2) + " min " + NumberText.padded(rest, digits: 2) + " s" }
        if minutes > 0 { return "\(minutes) min " + NumberText.padded(rest, digits: 2) + " s" }
        return "\(rest) s"
    }

    /// A track length: metres below 1 km, else kilometres (miles, nautical miles).
    static func distance(_ metres: Double, units: Units) -> String {
        switch units {
        case .metric: metres < 1000 ? NumberText.fixed(metres, decimals: 1) + " m" : NumberText.fixed(metres / 1000, decimals: 3) + " km"
        case .imperial: NumberText.fixed(metres / 1609.344, decimals: 3) + " mi"
        case .nautical: NumberText.fixed(metres / 1852, decimals: 3) + " nmi"
        }
    }

    private static func rounded(_ value: Double) -> Double {
        (value * 1000).rounded() / 1000
    }

    /// A latitude or longitude to gpsd's 9 decimals (about a millimetre), as TPV and GPX give
    /// it: the nearest double to that decimal prints as it, not as `153.05225000000002`.
    private static func degrees(_ value: Double) -> Double {
        (value * 1e9).rounded() / 1e9
    }
}
