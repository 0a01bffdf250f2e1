/// A circular region to monitor, from the configuration.
package struct RegionSetting: Sendable, Equatable {
    /// The region's name, its key under `regions`.
    package var name: String
    /// Centre latitude in degrees.
    package var latitude: Double
    /// Centre longitude in degrees.
    package var longitude: Double
    /// Radius in metres.
    package var radius: Double

    /// Creates a region.
    package init(name: String, latitude: Double, longitude: Double, radius: Double) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
    }
}
