import Testing
// Placeholder until the GeoTrackServiceTests suite lands.
