import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Which way the receiver points, like CoreLocation's `CLHeading`.
///
/// A heading comes from a heading sensor (NMEA HDT, THS, HDG or gpsd ATT), or —
/// only while moving faster than ``LocationManager/minimumSpeedForCourseHeading`` —
/// from the course over ground. Course over ground at walking pace or standing still
/// is noise, so it is never delivered as a heading.
public struct Heading: Sendable, Hashable, CustomStringConvertible {
    /// Where a heading came from.
    public enum Source: Sendable, Hashable {
        /// A heading sensor; the sentence or message ("HDT", "THS", "ATT"...) when known.
        case sensor(String?)
        /// The direction of travel, derived from successive fixes.
        case courseOverGround
    }

    /// Degrees from true north, 0 to 360, when known.
    public var trueHeading: Double?
    /// Degrees from magnetic north, 0 to 360, when known.
    public var magneticHeading: Double?
    /// Error in degrees, when known.
    public var headingAccuracy: Double?
    /// When the heading was measured.
    public var timestamp: Date
    /// The sensor or the course over ground.
    public var source: Source

    /// Creates a heading, or returns `nil` when neither a true nor a magnetic heading is valid.
    public init?(trueHeading: Double?, magneticHeading: Double? = nil, headingAccuracy: Double? = nil,
                 timestamp: Date, source: Source) {
        let trueValue = MeasuredValue.angle(trueHeading)
        let magnetic = MeasuredValue.angle(magneticHeading)
        guard trueValue != nil || magnetic != nil else { return nil }
        self.trueHeading = trueValue
        self.magneticHeading = magnetic
        self.headingAccuracy = MeasuredValue.nonNegative(headingAccuracy)
        self.timestamp = timestamp
        self.source = source
    }

    /// The true heading when known, else the magnetic one.
    public var bestHeading: Double {
        trueHeading ?? magneticHeading ?? 0
    }

    /// The heading in degrees and where it came from (a sensor's name, or `COG`).
    public var description: String {
        let kind = switch source {
        case .sensor(let name): name ?? "sensor"
        case .courseOverGround: "COG"
        }
        return "\(Int(bestHeading.rounded()))° (\(kind))"
    }
}
