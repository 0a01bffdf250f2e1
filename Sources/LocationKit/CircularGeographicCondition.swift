import GPSReports

/// A circle a ``Monitor`` watches, like CoreLocation's `CLMonitor.CircularGeographicCondition`:
/// satisfied while the device is inside it.
public struct CircularGeographicCondition: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The centre.
    public var center: Coordinate
    /// The radius in metres; a monitor accepts more than 0 and up to 100 km.
    public var radius: Double

    /// Creates a condition.
    public init(center: Coordinate, radius: Double) {
        self.center = center
        self.radius = radius
    }

    /// The centre and radius, as `lat,lon ±Rm`.
    public var description: String { "\(center) ±\(radius)m" }
}
