import Testing
// Placeholder until the ReactiveTests suite lands.
