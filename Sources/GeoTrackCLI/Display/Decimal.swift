#if canImport(Glibc)
import Glibc
#endif

/// Fixed-point number formatting without Foundation's `String(format:)`, which costs tens of
/// microseconds a call on Linux and runs several times per status-line redraw.
package enum Decimal {
    private static let powers: [Double] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000]

    /// `value` with exactly `decimals` digits after the point (0...9), rounded half away from zero,
    /// with at least `integerDigits` digits before it (zero-padded).
    package static func fixed(_ value: Double, decimals: Int, integerDigits: Int = 1) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        let places = max(0, min(9, decimals))
        let scale = powers[places]
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9.0e18 else { return String(value) }
        let total = UInt64(scaled)
        let factor = UInt64(scale)
        var integer = String(total / factor)
        if integer.utf8.count < integerDigits {
            integer = String(repeating: "0", count: integerDigits - integer.utf8.count) + integer
        }
        let negative = value < 0 && total != 0
        guard places > 0 else { return negative ? "-" + integer : integer }
        var fraction = String(total % factor)
        if fraction.utf8.count < places {
            fraction = String(repeating: "0", count: places - fraction.utf8.count) + fraction
        }
        return (negative ? "-" : "") + integer + "." + fraction
    }

    /// A non-negative integer zero-padded to `digits`.
    package static func padded(_ value: Int, digits: Int) -> String {
        let text = String(value)
        let count = text.utf8.count
        return count >= digits ? text : String(repeating: "0", count: digits - count) + text
    }

    /// `value` as C's `printf` writes it with `format` (`%.2g`, `%02x`): for the few layouts
    /// whose rules are C's own, without Foundation's `String(format:)`.
    package static func printf(_ format: String, _ arguments: any CVarArg...) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        let written = withVaList(arguments) { vsnprintf(&buffer, buffer.count, format, $0) }
        guard written >= 0 else { return "" }
        return String(decoding: buffer.prefix(min(Int(written), buffer.count - 1)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension String {
    /// The text followed by spaces up to `width` characters (unchanged when already as long), as
    /// Foundation's `padding(toLength:withPad:startingAt:)` pads a shorter string.
    package func padded(to width: Int) -> String {
        let length = count
        return length >= width ? self : self + String(repeating: " ", count: width - length)
    }
}
