import Testing
// Placeholder until the GeoTrackCLITests suite lands.
