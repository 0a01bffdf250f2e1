/// How many dimensions a fix has, as gpsd's TPV `mode` reports it.
public enum FixMode: Int, Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// Nothing seen yet (gpsd `mode` 0).
    case unknown = 0
    /// The receiver reports no fix (gpsd `mode` 1).
    case noFix = 1
    /// Latitude and longitude, no altitude (gpsd `mode` 2).
    case twoD = 2
    /// Latitude, longitude and altitude (gpsd `mode` 3).
    case threeD = 3

    /// Whether `lhs` is a lesser fix than `rhs` (no fix < 2D < 3D).
    public static func < (lhs: FixMode, rhs: FixMode) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `unknown`, `no fix`, `2D` or `3D`.
    public var description: String {
        switch self {
        case .unknown: "unknown"
        case .noFix: "no fix"
        case .twoD: "2D"
        case .threeD: "3D"
        }
    }
}

/// The kind of solution behind a fix, as gpsd's TPV `status` reports it.
public enum FixStatus: Int, Sendable, Hashable, Codable, CustomStringConvertible {
    /// Unknown or no fix.
    case unknown = 0
    /// A normal GNSS fix.
    case gps = 1
    /// Differentially corrected (DGPS, SBAS).
    case dgps = 2
    /// RTK with fixed integers.
    case rtkFixed = 3
    /// RTK with floating integers.
    case rtkFloat = 4
    /// Dead reckoning alone.
    case deadReckoning = 5
    /// GNSS combined with dead reckoning.
    case gnssDeadReckoning = 6
    /// Time only (surveyed-in base station).
    case timeOnly = 7
    /// Simulated by the receiver.
    case simulated = 8
    /// Precise positioning service (P(Y) code).
    case pps = 9

    /// The status in words (`GPS`, `DGPS`, `RTK fixed`, …).
    public var description: String {
        switch self {
        case .unknown: "unknown"
        case .gps: "GPS"
        case .dgps: "DGPS"
        case .rtkFixed: "RTK fixed"
        case .rtkFloat: "RTK float"
        case .deadReckoning: "dead reckoning"
        case .gnssDeadReckoning: "GNSS+DR"
        case .timeOnly: "time only"
        case .simulated: "simulated"
        case .pps: "PPS"
        }
    }
}
