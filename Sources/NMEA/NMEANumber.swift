import GPSReports

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
