import Foundation
import GPSReports

/// A position report, like CoreLocation's `CLLocation`.
///
/// Values the receiver did not report are `nil` — never NaN, never a stand-in 0,
/// never a negative accuracy. Accuracies are gpsd's 95%-confidence estimates, in metres
/// (degrees for ``courseAccuracy``, metres per second for ``speedAccuracy``).
public struct Location: Sendable, Hashable, CustomStringConvertible {
    /// Latitude and longitude (WGS 84).
    public var coordinate: Coordinate
    /// Height above mean sea level in metres.
    public var altitude: Double?
    /// Height above the WGS 84 ellipsoid in metres.
    public var ellipsoidalAltitude: Double?
    /// Horizontal position error in metres (95%).
    public var horizontalAccuracy: Double?
    /// Vertical position error in metres (95%).
    public var verticalAccuracy: Double?
    /// Speed over ground in metres per second.
    public var speed: Double?
    /// Speed error in metres per second (95%).
    public var speedAccuracy: Double?
    /// Course over ground in degrees from true north, 0 to 360. This is the direction of travel, not a heading.
    public var course: Double?
    /// Course error in degrees (95%).
    public var courseAccuracy: Double?
    /// The receiver's time of the fix (UTC).
    public var timestamp: Date
    /// Fix mode, satellites, dilutions and device.
    public var gnss: GNSSDetail
    /// Whether the source went quiet after this fix: it describes the past, not where the receiver is now.
    public var isStale: Bool

    /// Creates a location; non-finite and out-of-range values become `nil`.
    public init(coordinate: Coordinate, altitude: Double? = nil, ellipsoidalAltitude: Double? = nil,
                horizontalAccuracy: Double? = nil, verticalAccuracy: Double? = nil,
                speed: Double? = nil, speedAccuracy: Double? = nil,
                course: Double? = nil, courseAccuracy: Double? = nil,
                timestamp: Date, gnss: GNSSDetail = GNSSDetail(), isStale: Bool = false) {
        self.coordinate = coordinate
        self.altitude = Measurement.finite(altitude)
        self.ellipsoidalAltitude = Measurement.finite(ellipsoidalAltitude)
        self.horizontalAccuracy = Measurement.nonNegative(horizontalAccuracy)
        self.verticalAccuracy = Measurement.nonNegative(verticalAccuracy)
        self.speed = Measurement.nonNegative(speed)
        self.speedAccuracy = Measurement.nonNegative(speedAccuracy)
        self.course = Measurement.angle(course)
        self.courseAccuracy = Measurement.nonNegative(courseAccuracy)
        self.timestamp = timestamp
        self.gnss = gnss
        self.isStale = isStale
    }

    /// The great-circle distance to `other` in metres.
    public func distance(from other: Location) -> Double {
        coordinate.distance(to: other.coordinate)
    }

    public var description: String {
        var text = "\(coordinate)"
        if let horizontalAccuracy { text += " ±\(Int(horizontalAccuracy.rounded()))m" }
        text += " \(gnss.fixMode)"
        if isStale { text += " (stale)" }
        return text
    }
}
