/// The comma-separated fields of one framed sentence, as offsets into the input buffer.
///
/// Nothing is copied: a field is a byte range valid only while the sentence is being decoded.
/// Field 0 is the tag (talker and type, such as `GPRMC`). Reading past the last field gives an
/// empty field, as in gpsd.
struct NMEAFields {
    /// Most fields kept; a longer sentence is not NMEA.
    static let capacity = 104

    let base: UnsafePointer<UInt8>
    let starts: UnsafeMutablePointer<Int32>
    let ends: UnsafeMutablePointer<Int32>
    /// Fields stored.
    var stored: Int
    /// gpsd's field count: the fields including the tag, except that a sentence without a
    /// checksum does not count its last field (gpsd's splitter drops it).
    var count: Int

    @inline(__always) func length(_ i: Int) -> Int {
        i < stored ? Int(ends[i] - starts[i]) : 0
    }

    @inline(__always) func isEmpty(_ i: Int) -> Bool { length(i) == 0 }

    /// The field's first byte, or 0 when it is empty.
    @inline(__always) func first(_ i: Int) -> UInt8 {
        i < stored && ends[i] > starts[i] ? base[Int(starts[i])] : 0
    }

    /// The `k`th byte of field `i`, or 0 past its end.
    @inline(__always) func byte(_ i: Int, _ k: Int) -> UInt8 {
        guard i < stored else { return 0 }
        let at = Int(starts[i]) + k
        return at < Int(ends[i]) ? base[at] : 0
    }

    /// Whether field `i` holds exactly `text`.
    func equals(_ i: Int, _ text: StaticString) -> Bool {
        guard length(i) == text.utf8CodeUnitCount else { return false }
        let p = text.utf8Start
        for k in 0..<text.utf8CodeUnitCount where base[Int(starts[i]) + k] != p[k] { return false }
        return true
    }

    /// The field as a decimal number: `.nan` when empty, `nil` when it is not a number
    /// (letters, several points, more than 18 significant digits…).
    @inline(__always) func number(_ i: Int) -> Double? {
        guard i < stored else { return .nan }
        return NMEANumber.parse(base, Int(starts[i]), Int(ends[i]))
    }

    /// The field as C's `atoi` reads it: leading digits, 0 when there are none.
    @inline(__always) func atoi(_ i: Int) -> Int {
        guard i < stored else { return 0 }
        var at = Int(starts[i])
        let end = Int(ends[i])
        var negative = false
        if at < end, base[at] == UInt8(ascii: "-") || base[at] == UInt8(ascii: "+") {
            negative = base[at] == UInt8(ascii: "-")
            at += 1
        }
        var value = 0
        var digits = 0
        while at < end, base[at] &- 0x30 < 10, digits < 12 {
            value = value * 10 + Int(base[at] &- 0x30)
            at += 1
            digits += 1
        }
        return negative ? -value : value
    }

    /// The field as a strict integer: `nil` when empty, not all digits, or longer than 9 digits.
    @inline(__always) func integer(_ i: Int) -> Int? {
        let n = length(i)
        guard n > 0, n <= 9 else { return nil }
        var value = 0
        let start = Int(starts[i])
        for k in start..<(start + n) {
            let d = base[k] &- 0x30
            guard d < 10 else { return nil }
            value = value * 10 + Int(d)
        }
        return value
    }
}

/// Decimal number parsing on bytes, without Foundation or a String per field.
enum NMEANumber {
    /// 10^n for 0 ≤ n ≤ 22, every one exact in a Double.
    @inline(__always)
    static func powerOfTen(_ n: Int) -> Double {
        switch n {
        case 0: 1
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        case 15: 1e15
        case 16: 1e16
        case 17: 1e17
        case 18: 1e18
        case 19: 1e19
        case 20: 1e20
        case 21: 1e21
        default: 1e22
        }
    }

    /// Parses `[start, end)`: an optional sign, digits, an optional point and digits.
    /// Returns `.nan` for an empty range and `nil` for anything else that is not such a number.
    ///
    /// With at most 15 significant digits (every real NMEA field) the result is the correctly
    /// rounded value, the same as `strtod`.
    @inline(__always)
    static func parse(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        if start >= end { return .nan }
        if end - start > 24 { return nil }
        var i = start
        var negative = false
        if p[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        } else if p[i] == UInt8(ascii: "+") {
            i += 1
        }
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
        let value = Double(mantissa) / powerOfTen(fractionDigits)
        return negative ? -value : value
    }
}
