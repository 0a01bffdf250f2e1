import GPSReports

/// A circle to monitor for entry and exit, like CoreLocation's `CLCircularRegion`.
///
/// Regions are identified by ``identifier``: monitoring a region whose identifier is
/// already monitored replaces the old one.
public struct CircularRegion: Sendable, Hashable, CustomStringConvertible {
    /// The name the caller chose; unique among monitored regions.
    public var identifier: String
    /// The centre.
    public var center: Coordinate
    /// The radius in metres; must be finite and greater than zero.
    public var radius: Double
    /// Whether entering the region is reported.
    public var notifyOnEntry: Bool
    /// Whether leaving the region is reported.
    public var notifyOnExit: Bool

    /// Creates a region.
    public init(center: Coordinate, radius: Double, identifier: String, notifyOnEntry: Bool = true, notifyOnExit: Bool = true) {
        self.center = center
        self.radius = radius
        self.identifier = identifier
        self.notifyOnEntry = notifyOnEntry
        self.notifyOnExit = notifyOnExit
    }

    /// Whether `coordinate` lies within the circle (without hysteresis).
    public func contains(_ coordinate: Coordinate) -> Bool {
        center.distance(to: coordinate) <= radius
    }

    /// The identifier, centre and radius.
    public var description: String { "\(identifier) (\(center), \(radius)m)" }
}
