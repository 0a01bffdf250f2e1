import FoundationEssentials
import GPSReports
#if canImport(Glibc)
import Glibc
#endif

/// How coordinates are written: decimal degrees, degrees-minutes-seconds, or degrees and decimal minutes.
package enum CoordinateFormat: String, Sendable, CaseIterable {
    /// Decimal degrees: `51.50012°N`.
    case dd
    /// Degrees, minutes and seconds: `51°30'00.4"N`.
    case dms
    /// Degrees and decimal minutes, the marine habit: `51°30.007'N`.
    case ddm

    /// Writes a latitude (`N`/`S`) and a longitude (`E`/`W`) separated by a space.
    package func format(_ coordinate: Coordinate) -> String {
        "\(format(coordinate.latitude, positive: "N", negative: "S")) \(format(coordinate.longitude, positive: "E", negative: "W"))"
    }

    /// Writes one angle with its hemisphere letter.
    package func format(_ degrees: Double, positive: String, negative: String) -> String {
        let hemisphere = degrees < 0 ? negative : positive
        let magnitude = abs(degrees)
        switch self {
        case .dd:
            return NumberText.fixed(magnitude, decimals: 5) + "°" + hemisphere
        case .ddm:
            // Rounding happens on the whole value first so 59.9995' never prints as 60.000'.
            let thousandths = (magnitude * 60_000).rounded()
            let whole = Int(thousandths / 60_000)
            let minutes = (thousandths - Double(whole) * 60_000) / 1000
            return "\(whole)°" + NumberText.fixed(minutes, decimals: 3, integerDigits: 2) + "'" + hemisphere
        case .dms:
            let tenths = (magnitude * 36_000).rounded()
            let whole = Int(tenths / 36_000)
            let remainder = tenths - Double(whole) * 36_000
            let minutes = Int(remainder / 600)
            let seconds = (remainder - Double(minutes) * 600) / 10
            return "\(whole)°" + NumberText.padded(minutes, digits: 2) + "'" + NumberText.fixed(seconds, decimals: 1, integerDigits: 2) + "\"" + hemisphere
        }
    }
}
