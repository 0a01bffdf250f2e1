import NMEA

/// A replayed NMEA log or GPX track is a location source: each ``Replay/events()`` call
/// plays the file from the start, paced as the replay was configured.
extension Replay: LocationSource {}
