/// Sanitizing of measured values, so that NaN, infinities and impossible values never surface.
enum MeasuredValue {
    /// `value` when finite.
    static func finite(_ value: Double?) -> Double? {
        guard let value, value.isFinite else { return nil }
        return value
    }

    /// `value` when finite and not negative (accuracies, speeds, dilutions).
    static func nonNegative(_ value: Double?) -> Double? {
        guard let value = finite(value), value >= 0 else { return nil }
        return value
    }

    /// `value` as an angle in [0, 360), when finite.
    static func angle(_ value: Double?) -> Double? {
        guard let value = finite(value) else { return nil }
        let wrapped = value.truncatingRemainder(dividingBy: 360)
        return wrapped < 0 ? wrapped + 360 : wrapped
    }

    /// The smallest difference between two angles in degrees, 0 to 180.
    static func angularDistance(_ a: Double, _ b: Double) -> Double {
        let d = abs(a - b).truncatingRemainder(dividingBy: 360)
        return d > 180 ? 360 - d : d
    }
}
