/// How the status line and event lines are written.
package struct RenderOptions: Sendable, Equatable {
    /// Coordinate notation.
    package var format: CoordinateFormat
    /// Units for speeds and heights.
    package var units: Units
    /// Whether to use ANSI colours (only on a TTY, never with NO_COLOR).
    package var color: Bool

    /// Creates options; plain decimal degrees, metric, no colour by default.
    package init(format: CoordinateFormat = .dd, units: Units = .metric, color: Bool = false) {
        self.format = format
        self.units = units
        self.color = color
    }
}
