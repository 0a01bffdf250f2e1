#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Appends JSON text to a byte buffer without Foundation: the hot path of every JSON line the CLI prints.
///
/// Fixed-point numbers come out exactly as C's `printf("%.Nf")` writes them (gpsd's own formatting):
/// a fast integer path where the rounding is unambiguous, and `vsnprintf` for the rare near-ties.
package struct JSONWriter {
    /// The bytes written so far.
    package var bytes: [UInt8]

    /// Creates a writer with room for `capacity` bytes before it grows.
    package init(capacity: Int = 512) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    private static let powersOfTen: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12]

    /// Appends ASCII text that needs no escaping.
    @inline(__always)
    package mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends a JSON string literal, quoted and escaped.
    package mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for unit in value.utf8 {
            switch unit {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case 0x0A: raw("\\n")
            case 0x0D: raw("\\r")
            case 0x09: raw("\\t")
            case 0..<0x20:
                raw("\\u00")
                bytes.append(Self.hexDigit(unit >> 4))
                bytes.append(Self.hexDigit(unit & 0xF))
            default: bytes.append(unit)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    @inline(__always)
    private static func hexDigit(_ v: UInt8) -> UInt8 { v < 10 ? 0x30 + v : 0x61 + v - 10 }

    /// Appends a non-negative or negative integer in decimal.
    package mutating func integer(_ value: Int) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            unsignedInteger(UInt64(value.magnitude))
        } else {
            unsignedInteger(UInt64(value))
        }
    }

    @inline(__always)
    private mutating func unsignedInteger(_ value: UInt64, minimumDigits: Int = 1) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)   // 24 bytes of scratch, no heap
        var count = 0
        var v = value
        withUnsafeMutableBytes(of: &digits) { scratch in
            repeat {
                scratch[23 - count] = UInt8(truncatingIfNeeded: v % 10) &+ 0x30
                v /= 10
                count += 1
            } while v > 0 && count < 24
            while count < minimumDigits && count < 24 {
                scratch[23 - count] = 0x30
                count += 1
            }
            bytes.append(contentsOf: scratch[(24 - count)...])
        }
    }

    /// Appends `value` with exactly `decimals` digits after the point, as `printf("%.{decimals}f")` would.
    ///
    /// Non-finite values must not reach JSON; callers skip them.
    package mutating func fixed(_ value: Double, decimals: Int) {
        precondition(decimals >= 0 && decimals < Self.powersOfTen.count)
        let scaled = value * Self.powersOfTen[decimals]
        let magnitude = scaled.magnitude
        // Below 1e14 the product's rounding error is under 0.01, so a fraction not within 0.02 of
        // one half rounds the same way as the exact binary value; anything else takes the exact path.
        if magnitude < 1e14 {
            let floorPart = magnitude.rounded(.down)
            let fraction = magnitude - floorPart
            if abs(fraction - 0.5) > 0.02 {
                let units = UInt64(fraction > 0.5 ? floorPart + 1 : floorPart)
                if value.sign == .minus { bytes.append(UInt8(ascii: "-")) }
                if decimals == 0 {
                    unsignedInteger(units)
                    return
                }
                let divisor = UInt64(Self.powersOfTen[decimals])
                unsignedInteger(units / divisor)
                bytes.append(UInt8(ascii: "."))
                unsignedInteger(units % divisor, minimumDigits: decimals)
                return
            }
        }
        exactFixed(value, decimals: decimals)
    }

    private mutating func exactFixed(_ value: Double, decimals: Int) {
        var buffer = [CChar](repeating: 0, count: 352)
        let written = buffer.withUnsafeMutableBufferPointer { out -> Int32 in
            withVaList([Int32(decimals), value]) { args in
                vsnprintf(out.baseAddress, out.count, "%.*f", args)
            }
        }
        guard written > 0 else { return }
        let count = min(Int(written), buffer.count - 1)
        for i in 0..<count { bytes.append(UInt8(bitPattern: buffer[i])) }
    }

    /// Appends an ISO 8601 UTC timestamp with milliseconds, as gpsd prints `time`: `2017-01-10T00:09:42.000Z`.
    package mutating func isoTime(secondsSince1970 seconds: Double) {
        let totalMilliseconds = Int64((seconds * 1000).rounded())
        let days = totalMilliseconds >= 0 ? totalMilliseconds / 86_400_000 : (totalMilliseconds - 86_399_999) / 86_400_000
        let msOfDay = totalMilliseconds - days * 86_400_000
        let civil = CivilDate(daysSince1970: Int(days))
        bytes.append(UInt8(ascii: "\""))
        unsignedInteger(UInt64(max(0, civil.year)), minimumDigits: 4)
        bytes.append(UInt8(ascii: "-"))
        unsignedInteger(UInt64(civil.month), minimumDigits: 2)
        bytes.append(UInt8(ascii: "-"))
        unsignedInteger(UInt64(civil.day), minimumDigits: 2)
        bytes.append(UInt8(ascii: "T"))
        let ms = UInt64(msOfDay)
        unsignedInteger(ms / 3_600_000, minimumDigits: 2)
        bytes.append(UInt8(ascii: ":"))
        unsignedInteger(ms / 60_000 % 60, minimumDigits: 2)
        bytes.append(UInt8(ascii: ":"))
        unsignedInteger(ms / 1000 % 60, minimumDigits: 2)
        bytes.append(UInt8(ascii: "."))
        unsignedInteger(ms % 1000, minimumDigits: 3)
        raw("Z\"")
    }
}
