import Testing
// Placeholder until the NMEATests suite lands.
