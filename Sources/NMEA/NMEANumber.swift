import GPSReports
#if canImport(Glibc)
import Glibc
#endif

/// Decimal number parsing on bytes, without Foundation or a String per field.
enum NMEANumber {
    /// Parses `[start, end)`: an optional sign, digits, an optional point and digits.
    /// Returns `.nan` for an empty range and `nil` for anything else that is not such a number.
    ///
    /// With at most 15 significant digits (every real NMEA field) the result is the correctly
    /// rounded value, the same as `strtod`.
    @inline(__always)
    static func parse(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        if start >= end { return .nan }
        // The common case, in one pass with no per-digit bookkeeping: digits, an optional point
        // and digits, 18 digits at most in all, so the mantissa cannot overflow and no more than
        // 18 of them are significant. Anything else takes the general path below.
        let (negative, digitsStart) = sign(p, start)
        var i = digitsStart
        if end - i <= 19 {
            var mantissa: UInt64 = 0
            // Reads digits into the mantissa up to the first other byte; returns how many.
            @inline(__always) func digitRun() -> Int {
                let from = i
                while i < end {
                    let d = p[i] &- 0x30
                    if d >= 10 { break }
                    mantissa = mantissa &* 10 &+ UInt64(d)
                    i &+= 1
                }
                return i &- from
            }
            var digits = digitRun()
            var fractionDigits = 0
            if i < end && p[i] == UInt8(ascii: ".") {
                i &+= 1
                fractionDigits = digitRun()
                digits &+= fractionDigits
            }
            if i == end && digits > 0 && digits <= 18 {
                let value = Double(mantissa) / PowersOfTen.exact(fractionDigits)
                return negative ? -value : value
            }
        }
        return parseGeneral(p, start, end)
    }

    /// Whether a number starting at `start` is negative, and where its digits start.
    @inline(__always)
    private static func sign(_ p: UnsafePointer<UInt8>, _ start: Int) -> (negative: Bool, digits: Int) {
        switch p[start] {
        case UInt8(ascii: "-"): (true, start + 1)
        case UInt8(ascii: "+"): (false, start + 1)
        default: (false, start)
        }
    }

    /// ``parse(_:_:_:)`` for any input: leading zeros do not count towards the 18 significant
    /// digits, and at most 22 digits may follow the point.
    static func parseGeneral(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        if end - start > 24 { return nil }
        let (negative, digitsStart) = sign(p, start)
        var i = digitsStart
        var mantissa: UInt64 = 0
        var significant = 0
        var fractionDigits = 0
        var digits = 0
        var seenPoint = false
        while i < end {
            let c = p[i]
            let d = c &- 0x30
            if d < 10 {
                digits += 1
                if mantissa != 0 || d != 0 { significant += 1 }
                if significant > 18 { return nil }
                mantissa = mantissa &* 10 &+ UInt64(d)
                if seenPoint { fractionDigits += 1 }
            } else if c == UInt8(ascii: "."), !seenPoint {
                seenPoint = true
            } else {
                return nil
            }
            i += 1
        }
        guard digits > 0, fractionDigits <= 22 else { return nil }
        let value = Double(mantissa) / PowersOfTen.exact(fractionDigits)
        return negative ? -value : value
    }
}

extension NMEANumber {
    /// `[start, end)` as gpsd's `safe_atof` reads a field: its longest prefix that is a
    /// decimal number (a sign, digits with one point, an exponent), so `12abc` is 12 and `1e3`
    /// is 1000; NaN when the field does not start like a number (empty, `abc`, `inf`), and 0
    /// when it starts like one with no digit (`-x`). For fields gpsd reports as it read them
    /// (GST's), where ``parse(_:_:_:)`` refuses what is not plainly a number.
    static func gpsdPrefix(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Double {
        var i = start
        while i < end, p[i] == UInt8(ascii: " ") || p[i] == UInt8(ascii: "\t") { i += 1 }
        guard i < end else { return .nan }
        let first = p[i]
        let startsLikeNumber = (0x30...0x39).contains(first) || first == UInt8(ascii: "-") || first == UInt8(ascii: "+")
            || first == UInt8(ascii: ".")
        guard startsLikeNumber else { return .nan }
        var text: [UInt8] = []
        if first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            text.append(first)
            i += 1
        }
        var digits = 0
        var sawPoint = false
        while i < end {
            let byte = p[i]
            if (0x30...0x39).contains(byte) {
                digits += 1
            } else if byte == UInt8(ascii: "."), !sawPoint {
                sawPoint = true
            } else {
                break
            }
            text.append(byte)
            i += 1
        }
        guard digits > 0 else { return text.first == UInt8(ascii: "-") ? -0.0 : 0 }
        // An exponent counts only with a digit after its letter and sign.
        if i < end, p[i] == UInt8(ascii: "e") || p[i] == UInt8(ascii: "E") {
            var exponent: [UInt8] = [UInt8(ascii: "e")]
            var j = i + 1
            if j < end, p[j] == UInt8(ascii: "-") || p[j] == UInt8(ascii: "+") {
                exponent.append(p[j])
                j += 1
            }
            var exponentDigits = 0
            while j < end, (0x30...0x39).contains(p[j]), exponentDigits < 4 {
                exponent.append(p[j])
                exponentDigits += 1
                j += 1
            }
            if exponentDigits > 0 { text += exponent }
        }
        text.append(0)
        return text.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { $0.withMemoryRebound(to: CChar.self, capacity: buffer.count) { strtod($0, nil) } } ?? .nan
        }
    }
}
