/// How the status line and event lines are written.
package struct RenderOptions: Sendable, Equatable {
    /// Coordinate notation.
    package var format: CoordinateFormat
    /// Units for speeds and heights.
    package var units: Units
    /// Whether to use ANSI colours (only on a TTY, never with NO_COLOR).
    package var color: Bool
    /// How the source is named ("gpsd at localhost:2947", "track.nmea").
    package var sourceName: String
    /// What the line says before the source's first word ("connecting to gpsd at…", "replaying track.nmea").
    package var startingMessage: String
    /// The receiver asked for with `--device`, if any: "no receiver" then names it.
    package var device: String?

    /// Creates options; plain decimal degrees, metric, no colour by default.
    package init(format: CoordinateFormat = .dd, units: Units = .metric, color: Bool = false, sourceName: String = "the source",
                 startingMessage: String? = nil, device: String? = nil) {
        self.format = format
        self.units = units
        self.color = color
        self.sourceName = sourceName
        self.startingMessage = startingMessage ?? "connecting to " + sourceName
        self.device = device
    }
}
