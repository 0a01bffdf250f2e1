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

    /// Writes a latitude (`N`/`S`) and a longitude (`E`/`W`) separated by a space, with as
    /// many decimals as `accuracy` (metres, when known) warrants: the default's (about a metre
    /// to three, as a phone's fix deserves) unless the fix is better than its last digit, and
    /// then up to three more, so that a survey receiver's centimetres show (``extraDecimals(for:)``).
    package func format(_ coordinate: Coordinate, accuracy: Double? = nil) -> String {
        let extra = extraDecimals(for: accuracy)
        return format(coordinate.latitude, positive: "N", negative: "S", extraDecimals: extra) + " "
            + format(coordinate.longitude, positive: "E", negative: "W", extraDecimals: extra)
    }

    /// The ground the default last digit stands for, in metres at most: 0.00001° of latitude,
    /// 0.001' or 0.1".
    var defaultStep: Double {
        switch self {
        case .dd: 1.11
        case .ddm: 1.85
        case .dms: 3.09
        }
    }

    /// How many decimals beyond the default a position known to `accuracy` metres deserves:
    /// the fewest (0 to 3) whose last digit is no coarser than the accuracy. None when it is
    /// unknown, or not a positive number.
    package func extraDecimals(for accuracy: Double?) -> Int {
        guard let accuracy, accuracy.isFinite, accuracy > 0 else { return 0 }
        var step = defaultStep
        var extra = 0
        while step > accuracy && extra < 3 {
            step /= 10
            extra += 1
        }
        return extra
    }

    /// Writes one angle with its hemisphere letter, `extraDecimals` (0 to 3) beyond the default.
    package func format(_ degrees: Double, positive: String, negative: String, extraDecimals: Int = 0) -> String {
        let magnitude = abs(degrees)
        let extra = max(0, min(3, extraDecimals))
        // A value written as zero is on the equator or the prime meridian: N or E, whichever
        // side of it the fix lay, as -0.000001° shows no more than 0.00000.
        let lastDigits: Double = switch self {
        case .dd: magnitude * PowersOfTen.exact(5 + extra)
        case .ddm: magnitude * 60 * PowersOfTen.exact(3 + extra)
        case .dms: magnitude * 3600 * PowersOfTen.exact(1 + extra)
        }
        let shownAsZero = lastDigits.rounded() == 0
        let hemisphere = degrees < 0 && !shownAsZero ? negative : positive
        switch self {
        case .dd:
            return NumberText.fixed(magnitude, decimals: 5 + extra) + "°" + hemisphere
        case .ddm:
            // Rounding happens on the whole value first so 59.9995' never prints as 60.000'.
            let decimals = 3 + extra
            let scale = PowersOfTen.exact(decimals)
            let units = (magnitude * 60 * scale).rounded()
            let whole = (units / (60 * scale)).rounded(.down)
            let minutes = (units - whole * 60 * scale) / scale
            return Self.degrees(whole) + "°" + NumberText.fixed(minutes, decimals: decimals, integerDigits: 2) + "'" + hemisphere
        case .dms:
            let decimals = 1 + extra
            let scale = PowersOfTen.exact(decimals)
            let units = (magnitude * 3600 * scale).rounded()
            let whole = (units / (3600 * scale)).rounded(.down)
            let remainder = units - whole * 3600 * scale
            let minutes = (remainder / (60 * scale)).rounded(.down)
            let seconds = (remainder - minutes * 60 * scale) / scale
            return Self.degrees(whole) + "°" + NumberText.fixed(minutes, decimals: 0, integerDigits: 2) + "'"
                + NumberText.fixed(seconds, decimals: decimals, integerDigits: 2) + "\"" + hemisphere
        }
    }

    /// Whole degrees as digits; a value no coordinate has (beyond 360, not finite) as its fixed text.
    private static func degrees(_ whole: Double) -> String {
        guard whole.isFinite, abs(whole) < 1000 else { return NumberText.fixed(whole, decimals: 0) }
        return String(Int(whole))
    }
}
