/// The comma-separated fields of one framed sentence, as offsets into the input buffer.
///
/// Nothing is copied: a field is a byte range valid only while the sentence is being decoded.
/// Field 0 is the tag (talker and type, such as `GPRMC`). Reading past the last field gives an
/// empty field, as in gpsd.
struct NMEAFields {
    /// Most fields kept; a longer sentence is not NMEA.
    static let capacity = 104

    let base: UnsafePointer<UInt8>
    /// The separators, as offsets from `base`: field `i` lies between `bounds[i]` (the `$` or
    /// the comma before it) and `bounds[i + 1]` (the comma, `*` or line end after it), so
    /// `stored + 1` of them. One offset per comma, not a start and an end per field: the
    /// framing stores one value per comma.
    let bounds: UnsafeMutablePointer<Int32>
    /// Fields stored.
    var stored: Int
    /// gpsd's field count: the fields including the tag, except that a sentence without a
    /// checksum does not count its last field (gpsd's splitter drops it).
    var count: Int

    /// Where field `i` (one of those stored) starts, after its separator.
    @inline(__always) func start(_ i: Int) -> Int { Int(bounds[i]) &+ 1 }

    /// Where field `i` (one of those stored) ends, at the separator after it.
    @inline(__always) func end(_ i: Int) -> Int { Int(bounds[i &+ 1]) }

    @inline(__always) func length(_ i: Int) -> Int {
        i < stored ? end(i) &- start(i) : 0
    }

    @inline(__always) func isEmpty(_ i: Int) -> Bool { length(i) == 0 }

    /// The field's first byte, or 0 when it is empty.
    @inline(__always) func first(_ i: Int) -> UInt8 {
        i < stored && end(i) > start(i) ? base[start(i)] : 0
    }

    /// The `k`th byte of field `i`, or 0 past its end.
    @inline(__always) func byte(_ i: Int, _ k: Int) -> UInt8 {
        guard i < stored else { return 0 }
        let at = start(i) + k
        return at < end(i) ? base[at] : 0
    }

    /// Whether field `i` holds exactly `text`.
    func equals(_ i: Int, _ text: StaticString) -> Bool {
        guard length(i) == text.utf8CodeUnitCount else { return false }
        let p = text.utf8Start
        for k in 0..<text.utf8CodeUnitCount where base[start(i) + k] != p[k] { return false }
        return true
    }

    /// The field as a decimal number: `.nan` when empty, `nil` when it is not a number
    /// (letters, several points, more than 18 significant digits…).
    @inline(__always) func number(_ i: Int) -> Double? {
        guard i < stored else { return .nan }
        return NMEANumber.parse(base, start(i), end(i))
    }

    /// The field as C's `atoi` reads it: leading digits, 0 when there are none.
    @inline(__always) func atoi(_ i: Int) -> Int {
        guard i < stored else { return 0 }
        var at = start(i)
        let end = end(i)
        var negative = false
        if at < end, base[at] == UInt8(ascii: "-") || base[at] == UInt8(ascii: "+") {
            negative = base[at] == UInt8(ascii: "-")
            at += 1
        }
        var value = 0
        var digits = 0
        // Twelve digits at most: the arithmetic cannot overflow, so it is not checked.
        while at < end, base[at] &- 0x30 < 10, digits < 12 {
            value = value &* 10 &+ Int(base[at] &- 0x30)
            at &+= 1
            digits &+= 1
        }
        return negative ? -value : value
    }

    /// ``atoi(_:)`` for a field that is nearly always empty or two or three digits (satellite
    /// numbers, elevations, azimuths): those cases read directly, anything else by ``atoi(_:)``.
    @inline(__always) func shortAtoi(_ i: Int) -> Int {
        guard i < stored else { return 0 }
        let start = start(i)
        switch end(i) - start {
        case 0:
            return 0
        case 2:
            let high = base[start] &- 0x30, low = base[start + 1] &- 0x30
            if high < 10 && low < 10 { return Int(high) &* 10 &+ Int(low) }
            return generalAtoi(i)
        case 3:
            let high = base[start] &- 0x30, middle = base[start + 1] &- 0x30, low = base[start + 2] &- 0x30
            if high < 10 && middle < 10 && low < 10 { return Int(high) &* 100 &+ Int(middle) &* 10 &+ Int(low) }
            return generalAtoi(i)
        default:
            return generalAtoi(i)
        }
    }

    /// ``atoi(_:)`` out of line, for ``shortAtoi(_:)``: inlined for each satellite field of a
    /// GSV or GSA, it takes this call only for a field that is not empty or two or three digits.
    @inline(never) func generalAtoi(_ i: Int) -> Int {
        atoi(i)
    }

    /// The field as a strict integer: `nil` when empty, not all digits, or longer than 9 digits.
    @inline(__always) func integer(_ i: Int) -> Int? {
        let n = length(i)
        guard n > 0, n <= 9 else { return nil }
        var value = 0
        let start = start(i)
        // Nine digits at most: the arithmetic cannot overflow, so it is not checked.
        for k in start..<(start + n) {
            let d = base[k] &- 0x30
            guard d < 10 else { return nil }
            value = value &* 10 &+ Int(d)
        }
        return value
    }
}
