/// Visit detection, from the configuration: off unless asked for, as in CoreLocation.
package struct VisitSettings: Sendable, Equatable {
    /// Whether arrivals and departures are reported.
    package var enabled = false
    /// A visit is a stay within this radius, in metres...
    package var radius: Double = 50
    /// ...lasting at least this many seconds (measured on the fixes' own times).
    package var dwell: Double = 300

    /// The longest dwell taken, in seconds: a year, as for `--timeout`.
    package static let maximumDwell: Double = 366 * 86_400

    /// The defaults.
    package init() {}
}
