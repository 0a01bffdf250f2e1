/// Numbers with a fixed count of decimals, rounded as C's `printf("%.*f")` rounds them (the
/// exact binary value, half to even): the one rounding GeoTrack's outputs share, so gpsd's TPV,
/// OwnTracks messages and the terminal show a value alike to its last digit.
package enum FixedPoint {
    /// `value` with exactly `decimals` (0…12) digits after the point; "nan" or "inf" when not finite.
    package static func text(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        var writer = JSONWriter(capacity: 64)
        writer.fixed(value, decimals: decimals)
        return writer.withBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// `value` rounded to `decimals` as ``text(_:decimals:)`` prints it: the number a reader of
    /// that text gets back. Not finite: unchanged.
    package static func rounded(_ value: Double, decimals: Int) -> Double {
        guard value.isFinite else { return value }
        return Double(text(value, decimals: decimals)) ?? value
    }
}
