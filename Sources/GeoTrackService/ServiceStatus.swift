import GPSReports
import LocationKit

/// What the geolocation service is doing, for a status line.
public enum ServiceStatus: Sendable, Hashable, CustomStringConvertible {
    /// Location access is not decided yet.
    case waitingForAuthorization
    /// Location access is denied or restricted.
    case denied
    /// gpsd cannot be reached; a new attempt follows after the delay, when known.
    case gpsdUnreachable(retryingIn: Duration?)
    /// gpsd answers but has no receiver.
    case noReceiver
    /// A receiver reports, without a position yet.
    case searching(seen: Int, used: Int)
    /// A current position, 2D or 3D.
    case fix(mode: FixMode, location: Location)
    /// The source went quiet: the last position is no longer current.
    case stale

    public var description: String {
        switch self {
        case .waitingForAuthorization:
            "waiting for location access (run `geotrack auth grant`)"
        case .denied:
            "location access denied (run `geotrack auth grant`)"
        case .gpsdUnreachable(let delay):
            if let delay { "gpsd unreachable, retrying in \(delay.components.seconds)s" } else { "gpsd unreachable" }
        case .noReceiver:
            "no GPS receiver attached to gpsd"
        case .searching(let seen, let used):
            "searching: \(used)/\(seen) satellites"
        case .fix(let mode, let location):
            "\(mode) fix: \(location)"
        case .stale:
            "stale: no recent fix"
        }
    }
}
