import GPSReports
#if canImport(Glibc)
import Glibc
#endif

/// Numbers as text for the terminal and the picture, without Foundation's `String(format:)`,
/// which costs tens of microseconds a call on Linux and runs several times per status-line redraw.
package enum NumberText {
    /// `value` with exactly `decimals` digits after the point (0...9), rounded as gpsd's TPV
    /// rounds (``FixedPoint``), with at least `integerDigits` digits before it (zero-padded). A
    /// value that rounds to zero shows no minus sign: "-0.0" says nothing a reader needs.
    package static func fixed(_ value: Double, decimals: Int, integerDigits: Int = 1) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        var text = FixedPoint.text(value, decimals: max(0, min(9, decimals)))
        var negative = false
        if text.hasPrefix("-") {
            text.removeFirst()
            negative = text.contains { $0 != "0" && $0 != "." }
        }
        let integerCount = text.prefix { $0 != "." }.count
        if integerCount < integerDigits {
            text = String(repeating: "0", count: integerDigits - integerCount) + text
        }
        return negative ? "-" + text : text
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
