import Testing
// Placeholder until the GPSDTests suite lands.
