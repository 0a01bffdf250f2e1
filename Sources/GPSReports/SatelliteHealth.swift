/// Whether a satellite's signals can be trusted, as the receiver says (gpsd's SKY `health`).
///
/// Only some receivers say it (u-blox and other binary protocols); NMEA's GSV does not, so a
/// satellite from an NMEA log has no health (`nil`), which is "unknown", never "healthy".
public enum SatelliteHealth: Int, Sendable, Hashable, CustomStringConvertible {
    /// The satellite is usable (gpsd `health` 1).
    case healthy = 1
    /// The satellite is flagged unusable (gpsd `health` 2).
    case unhealthy = 2

    /// `ok` or `unhealthy`.
    public var description: String {
        switch self {
        case .healthy: "ok"
        case .unhealthy: "unhealthy"
        }
    }
}
