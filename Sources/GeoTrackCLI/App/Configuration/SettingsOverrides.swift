/// What the command line sets, typed as its options parsed it: the top layer of the
/// configuration, above the `GEOTRACK_*` environment, the file and the built-in defaults.
///
/// It is applied to the resolved ``Settings`` as it is, never written back into text to be read
/// and checked again: the option groups have checked it already (``GPSDAddress``, `--device`,
/// the GPX options' ranges). A key it sets is not read from the layers below at all, so a bad
/// value there does not stop a command whose command line replaces it.
package struct SettingsOverrides: Sendable, Equatable {
    /// `--gpsd HOST`.
    package var gpsdHost: String?
    /// `--gpsd :PORT`.
    package var gpsdPort: Int?
    /// `--device PATH`.
    package var device: String?
    /// `--units`.
    package var units: Units?
    /// `--format`.
    package var format: CoordinateFormat?
    /// `--visits` (the command line only ever turns visits on).
    package var visits: Bool?
    /// `--gpx-min-move METRES`.
    package var gpxMinimumMove: Double?
    /// `--gpx-min-interval SECONDS`.
    package var gpxMinimumInterval: Double?
    /// `--gpx-segment-after SECONDS`.
    package var gpxSegmentAfter: Double?

    /// Nothing set.
    package init() {}

    /// The configuration keys set here, which the loader does not read from the layers below.
    package var keys: Set<String> {
        var keys: Set<String> = []
        if gpsdHost != nil { keys.insert(ConfigKeys.gpsdHost) }
        if gpsdPort != nil { keys.insert(ConfigKeys.gpsdPort) }
        if device != nil { keys.insert(ConfigKeys.gpsdDevice) }
        if units != nil { keys.insert(ConfigKeys.units) }
        if format != nil { keys.insert(ConfigKeys.format) }
        if visits != nil { keys.insert(ConfigKeys.visits) }
        if gpxMinimumMove != nil { keys.insert(ConfigKeys.gpxMinimumMove) }
        if gpxMinimumInterval != nil { keys.insert(ConfigKeys.gpxMinimumInterval) }
        if gpxSegmentAfter != nil { keys.insert(ConfigKeys.gpxSegmentAfter) }
        return keys
    }

    /// Sets in `settings` what is set here.
    package func apply(to settings: inout Settings) {
        if let gpsdHost { settings.gpsdHost = gpsdHost }
        if let gpsdPort { settings.gpsdPort = gpsdPort }
        if let device { settings.device = device }
        if let units { settings.units = units }
        if let format { settings.format = format }
        if let visits { settings.visits.enabled = visits }
        if let gpxMinimumMove { settings.gpx.minimumMove = gpxMinimumMove }
        if let gpxMinimumInterval { settings.gpx.minimumInterval = gpxMinimumInterval }
        if let gpxSegmentAfter { settings.gpx.segmentAfter = gpxSegmentAfter }
    }

    /// These overrides with what `other` sets on top.
    package func merging(_ other: SettingsOverrides) -> SettingsOverrides {
        var merged = self
        merged.gpsdHost = other.gpsdHost ?? gpsdHost
        merged.gpsdPort = other.gpsdPort ?? gpsdPort
        merged.device = other.device ?? device
        merged.units = other.units ?? units
        merged.format = other.format ?? format
        merged.visits = other.visits ?? visits
        merged.gpxMinimumMove = other.gpxMinimumMove ?? gpxMinimumMove
        merged.gpxMinimumInterval = other.gpxMinimumInterval ?? gpxMinimumInterval
        merged.gpxSegmentAfter = other.gpxSegmentAfter ?? gpxSegmentAfter
        return merged
    }
}
