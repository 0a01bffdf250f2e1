import LocationKit

/// The sixteen points of the compass.
package enum CompassPoint {
    private static let names = ["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE",
                                "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"]

    /// The point nearest to a bearing in degrees (any value; it is normalised to 0..<360).
    package static func name(for degrees: Double) -> String {
        let normalised = (degrees.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
        let index = Int((normalised / 22.5).rounded()) % 16
        return names[index]
    }

    /// A bearing with its compass point: `275° W` (a dash for a value that is no number).
    package static func bearing(_ degrees: Double) -> String {
        guard degrees.isFinite else { return "–" }
        let normalised = (degrees.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
        let whole = Int(normalised.rounded()) % 360
        return "\(whole)° \(name(for: normalised))"
    }

    /// A heading as every output shows it: the true heading's bearing, or, when only the magnetic
    /// one is known (a compass before the first fix gives the variation), that one, marked so.
    package static func heading(_ heading: Heading) -> String {
        bearing(heading.bestHeading) + (heading.trueHeading == nil ? " magnetic" : "")
    }
}
