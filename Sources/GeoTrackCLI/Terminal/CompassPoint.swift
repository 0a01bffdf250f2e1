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

    /// A bearing with its compass point: `275° W`.
    package static func bearing(_ degrees: Double) -> String {
        let normalised = (degrees.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
        let whole = Int(normalised.rounded()) % 360
        return "\(whole)° \(name(for: normalised))"
    }
}
