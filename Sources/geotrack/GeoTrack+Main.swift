import GeoTrackCLI

// The command lives in GeoTrackCLI so tests can reach it; this target only starts it.
@main
extension GeoTrack {}
