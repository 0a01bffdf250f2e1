import Foundation
import GeoTrackService
import GPSReports
import LocationKit

/// A track's statistics as text for people (one `name  value` line each) or as one JSON object.
package enum StatisticsReport {
    /// The summary as aligned lines, in the chosen units and coordinate notation.
    package static func lines(_ statistics: TrackStatistics, units: Units, format: CoordinateFormat) -> [String] {
        var rows: [(String, String)] = [("points", "\(statistics.points)")]
        if let first = statistics.first, let last = statistics.last {
            rows.append(("first fix", GPXFormat.timestamp(first.timestamp) + "  " + format.format(first.coordinate)))
            rows.append(("last fix", GPXFormat.timestamp(last.timestamp) + "  " + format.format(last.coordinate)))
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
        rows.append(("stops", "\(statistics.stops.count) (5 min or more within \(Int(TrackStatistics.stopRadius)) m)"))
        for stop in statistics.stops {
            let until = stop.departure.map { " to " + GPXFormat.timestamp($0) } ?? " to the end"
            rows.append(("  stop", format.format(stop.center) + "  " + GPXFormat.timestamp(stop.arrival) + until))
        }
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.1 }
    }

    /// The summary as one JSON object, in SI units; what is unknown is left out.
    package static func json(_ statistics: TrackStatistics, file: String? = nil) -> String {
        var object: [String: Any] = ["points": statistics.points, "distance_m": rounded(statistics.distance),
                                     "moving_s": rounded(statistics.movingTime), "ascent_m": rounded(statistics.ascent),
                                     "descent_m": rounded(statistics.descent), "trips": statistics.trips]
        if let file { object["file"] = file }
        if let first = statistics.first { object["first"] = GPXFormat.timestamp(first.timestamp) }
        if let last = statistics.last { object["last"] = GPXFormat.timestamp(last.timestamp) }
        if let duration = statistics.duration { object["duration_s"] = rounded(duration) }
        if let maximum = statistics.maximumSpeed { object["max_speed_mps"] = rounded(maximum) }
        if let average = statistics.averageMovingSpeed { object["avg_moving_speed_mps"] = rounded(average) }
        if let south = statistics.south, let west = statistics.west, let north = statistics.north, let east = statistics.east {
            object["bbox"] = ["south": south, "west": west, "north": north, "east": east]
        }
        object["stops"] = statistics.stops.map { stop -> [String: Any] in
            var entry: [String: Any] = ["lat": stop.center.latitude, "lon": stop.center.longitude,
                                        "arrival": GPXFormat.timestamp(stop.arrival)]
            if let departure = stop.departure { entry["departure"] = GPXFormat.timestamp(departure) }
            return entry
        }
        // Every value is finite by construction (nil stands for unknown), so this cannot fail.
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// `1 h 02 min 03 s`, `4 min 05 s`, `7 s`.
    static func duration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let hours = total / 3600, minutes = total % 3600 / 60, rest = total % 60
        if hours > 0 { return "\(hours) h " + Decimal.padded(minutes, digits: 2) + " min " + Decimal.padded(rest, digits: 2) + " s" }
        if minutes > 0 { return "\(minutes) min " + Decimal.padded(rest, digits: 2) + " s" }
        return "\(rest) s"
    }

    /// A track length: metres below 1 km, else kilometres (miles, nautical miles).
    static func distance(_ metres: Double, units: Units) -> String {
        switch units {
        case .metric: metres < 1000 ? Decimal.fixed(metres, decimals: 1) + " m" : Decimal.fixed(metres / 1000, decimals: 3) + " km"
        case .imperial: Decimal.fixed(metres / 1609.344, decimals: 3) + " mi"
        case .nautical: Decimal.fixed(metres / 1852, decimals: 3) + " nmi"
        }
    }

    private static func rounded(_ value: Double) -> Double {
        (value * 1000).rounded() / 1000
    }
}
