import GPSReports

/// A replayed NMEA log or GPX track is a location source: each session plays the file from
/// the start, paced as the replay was configured, pulling a batch of reports at a time. It is
/// pulled, so a location manager reads it only as fast as its slowest consumer.
extension Replay: PulledLocationSource {
    /// Played back from a recording, like CoreLocation's simulated locations.
    public var sourceInformation: SourceInformation { .simulated }
}
