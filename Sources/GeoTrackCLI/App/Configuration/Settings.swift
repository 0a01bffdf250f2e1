/// Everything geotrack reads from its configuration, resolved and checked.
package struct Settings: Sendable, Equatable {
    /// gpsd's host name or address.
    package var gpsdHost = "localhost"
    /// gpsd's TCP port.
    package var gpsdPort = 2947
    /// One receiver to watch, or nil for all.
    package var device: String?
    /// Units for speeds and heights.
    package var units: Units = .metric
    /// Coordinate notation.
    package var format: CoordinateFormat = .dd
    /// Minimum move in metres before a new location is delivered (0 = every fix).
    package var distanceFilter: Double = 0
    /// Fixes less accurate than this many metres, or of unknown accuracy, are not delivered (0 = every fix).
    package var accuracyFilter: Double = 0
    /// Circular regions to monitor.
    package var regions: [RegionSetting] = []
    /// Whether and how visits are reported.
    package var visits = VisitSettings()
    /// GPX recording options.
    package var gpx = GPXOptions()
    /// Where to publish without `--publish`, and as whom.
    package var publish = PublishSettings()

    /// The built-in defaults (the same values config/geotrack.yaml documents).
    package init() {}
}

/// The `publish:` section: destinations and names used when the command line gives none.
package struct PublishSettings: Sendable, Equatable {
    /// URLs, as `--publish` takes them (checked when read).
    package var destinations: [String] = []
    /// `--publish-user`'s default, when set.
    package var user: String?
    /// `--publish-device`'s default, when set.
    package var device: String?
    /// `--publish-home-assistant`'s default.
    package var homeAssistant = false
}

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

/// Visit detection, from the configuration: off unless asked for, as in CoreLocation.
package struct VisitSettings: Sendable, Equatable {
    /// Whether arrivals and departures are reported.
    package var enabled = false
    /// A visit is a stay within this radius, in metres...
    package var radius: Double = 50
    /// ...lasting at least this many seconds (measured on the fixes' own times).
    package var dwell: Double = 300

    /// The defaults.
    package init() {}
}
