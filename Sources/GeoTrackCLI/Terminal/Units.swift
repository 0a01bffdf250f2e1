import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The unit system for speeds, altitudes and distances.
package enum Units: String, Sendable, CaseIterable {
    /// km/h and metres.
    case metric
    /// mph and feet.
    case imperial
    /// knots, and metres for heights (as charts give them).
    case nautical

    /// A speed given in metres per second.
    package func speed(_ metresPerSecond: Double) -> String {
        switch self {
        case .metric: NumberText.fixed(metresPerSecond * 3.6, decimals: 1) + " km/h"
        case .imperial: NumberText.fixed(metresPerSecond * 2.236_936_292, decimals: 1) + " mph"
        case .nautical: NumberText.fixed(metresPerSecond * 1.943_844_492, decimals: 1) + " kn"
        }
    }

    /// A climb or sink rate given in metres per second, with its sign when `signed`: metres per
    /// second, or feet per minute as aviation gives it.
    package func climbRate(_ metresPerSecond: Double, signed: Bool) -> String {
        let sign = signed && metresPerSecond > 0 ? "+" : ""
        switch self {
        case .metric, .nautical: return sign + NumberText.fixed(metresPerSecond, decimals: 1) + " m/s"
        case .imperial: return sign + NumberText.fixed(metresPerSecond * 196.850_393_7, decimals: 0) + " ft/min"
        }
    }

    /// A height or a short distance given in metres, in whole units.
    package func length(_ metres: Double) -> String {
        length(metres, decimals: 0)
    }

    /// A length in this system's unit (metres or feet) with `decimals` decimals.
    private func length(_ metres: Double, decimals: Int) -> String {
        switch self {
        case .metric, .nautical: NumberText.fixed(metres, decimals: decimals) + " m"
        case .imperial: NumberText.fixed(metres * Self.feetPerMetre, decimals: decimals) + " ft"
        }
    }

    private static let feetPerMetre = 3.280_839_895

    /// `metres` in this system's unit of length.
    private func inUnit(_ metres: Double) -> Double {
        self == .imperial ? metres * Self.feetPerMetre : metres
    }

    /// How many decimals a length known to `accuracy` metres deserves: none from one unit up (or
    /// unknown), then one per tenth, to three (millimetres, or thousandths of a foot).
    private func decimals(forAccuracy accuracy: Double?) -> Int {
        guard let accuracy, accuracy.isFinite, accuracy > 0 else { return 0 }
        var bound = 1.0
        var decimals = 0
        let value = inUnit(accuracy)
        while value < bound && decimals < 3 {
            bound /= 10
            decimals += 1
        }
        return decimals
    }

    /// An accuracy (a ± value, or gpsd's error estimate) given in metres: whole units from one
    /// up, as a phone's or a plain receiver's deserves; below one unit two significant digits
    /// to the millimetre, so that a survey receiver's 0.014 m is not "0 m".
    package func accuracy(_ metres: Double) -> String {
        let decimals = decimals(forAccuracy: metres)
        return length(metres, decimals: decimals == 0 ? 0 : min(3, decimals + 1))
    }

    /// A height given in metres, with as many decimals as its vertical accuracy (metres, when
    /// known) warrants: whole units, or to the decimetre, centimetre or millimetre for a fix
    /// known that well (``accuracy(_:)``'s rule).
    package func height(_ metres: Double, accuracy: Double?) -> String {
        length(metres, decimals: decimals(forAccuracy: accuracy))
    }
}
