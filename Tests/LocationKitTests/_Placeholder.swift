import Testing
// Placeholder until the LocationKitTests suite lands.
