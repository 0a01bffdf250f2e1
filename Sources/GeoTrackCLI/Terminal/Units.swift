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

    /// A height or a short distance (an accuracy) given in metres.
    package func length(_ metres: Double) -> String {
        switch self {
        case .metric, .nautical: NumberText.fixed(metres, decimals: 0) + " m"
        case .imperial: NumberText.fixed(metres * 3.280_839_895, decimals: 0) + " ft"
        }
    }
}
