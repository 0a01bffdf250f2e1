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
