import HTTP
import LocationKit
import OwnTracks

/// A location as Traccar's OsmAnd protocol carries it: query parameters, read by Traccar's
/// `OsmAndProtocolDecoder` as `id` (the device's unique id on the server), `lat` and `lon`
/// (degrees), `timestamp` (seconds since 1970: a number below 2^31 is taken as seconds),
/// `speed` (knots), `bearing` (degrees), `altitude` (metres), `accuracy` (metres) and `hdop`.
///
/// Only what the receiver reported is sent: Traccar keeps the last value of a parameter left
/// out, where a 0 would claim a standstill or sea level.
package enum OsmAndQuery {
    /// Metres per second in a knot (1852 m an hour).
    static let metresPerSecondPerKnot = 1852.0 / 3600.0

    /// The query for `location`, sent for the device `id`.
    package static func make(_ location: Location, id: String) -> String {
        var parameters: [(String, String)] = [
            ("id", HTTPEndpoint.percentEncoded(id)),
            ("timestamp", String(OwnTracksLocation.seconds(location.timestamp))),
            // gpsd's 9 decimals, as OwnTracks' messages carry them.
            ("lat", number(location.coordinate.latitude, decimals: 9)),
            ("lon", number(location.coordinate.longitude, decimals: 9)),
        ]
        if let speed = location.speed {
            parameters.append(("speed", number(speed / metresPerSecondPerKnot, decimals: 3)))
        }
        if let course = location.course {
            parameters.append(("bearing", number(course, decimals: 1)))
        }
        if let altitude = location.altitude {
            parameters.append(("altitude", number(altitude, decimals: 2)))
        }
        if let accuracy = location.horizontalAccuracy {
            parameters.append(("accuracy", number(accuracy, decimals: 1)))
        }
        if let hdop = location.gnss.hdop {
            parameters.append(("hdop", number(hdop, decimals: 2)))
        }
        return parameters.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    /// `value` in fixed notation (Java's `Double.parseDouble` reads it; no exponent), without
    /// trailing zeros.
    static func number(_ value: Double, decimals: Int) -> String {
        var text = NumberText.fixed(value, decimals: decimals)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }
}
