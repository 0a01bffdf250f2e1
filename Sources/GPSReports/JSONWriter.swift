#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Appends JSON text to a growable byte buffer without Foundation: the hot path of every JSON
/// line the CLI prints.
///
/// Fixed-point numbers come out exactly as C's `printf("%.Nf")` writes them (gpsd's own formatting):
/// an integer path where the rounding is unambiguous, and `vsnprintf` for the rare near-ties.
package struct JSONWriter: ~Copyable {
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes written so far.
    package private(set) var count = 0

    private var cachedDay = Int64.min
    private var cachedDate: (UInt64, UInt64) = (0, 0)

    /// The last text written for each numbered field (see ``cachedField(_:_:_:_:)``): consecutive
    /// fixes repeat many values (ept, DOP-based errors, geoid separation…), which are then copied.
    static let fieldSlots = 32
    static let fieldSlotSize = 48
    private let fieldText: UnsafeMutablePointer<UInt8>
    private let fieldLength: UnsafeMutablePointer<Int>
    private let fieldBits: UnsafeMutablePointer<UInt64>

    /// Creates a writer with room for `capacity` bytes before it grows.
    package init(capacity: Int = 512) {
        self.capacity = max(capacity, 64)
        storage = .allocate(capacity: self.capacity)
        fieldText = .allocate(capacity: Self.fieldSlots * Self.fieldSlotSize)
        fieldText.initialize(repeating: 0, count: Self.fieldSlots * Self.fieldSlotSize)
        fieldLength = .allocate(capacity: Self.fieldSlots)
        fieldLength.initialize(repeating: 0, count: Self.fieldSlots)
        fieldBits = .allocate(capacity: Self.fieldSlots)
        fieldBits.initialize(repeating: 0, count: Self.fieldSlots)
    }

    deinit {
        storage.deallocate()
        fieldText.deallocate()
        fieldLength.deallocate()
        fieldBits.deallocate()
    }

    /// Appends `name` and `value` printed with `decimals`, reusing the text of the previous call
    /// with the same `slot` when the value is bit-for-bit the same.
    @inline(__always)
    package mutating func cachedField(_ slot: Int, _ name: StaticString, _ value: Double, _ decimals: Int) {
        let length = fieldLength[slot]
        let slotText = fieldText + slot * Self.fieldSlotSize
        if length > 0 && fieldBits[slot] == value.bitPattern {
            // What lies past `length` is overwritten by whatever comes next.
            reserve(Self.fieldSlotSize)
            Self.copySlot(from: slotText, to: storage + count)
            count += length
            return
        }
        let start = count
        raw(name)
        fixed(value, decimals: decimals)
        let written = count - start
        if written <= Self.fieldSlotSize {
            // The bytes past the field, up to the slot's size, are copied too and never used.
            reserve(Self.fieldSlotSize)
            Self.copySlot(from: storage + start, to: slotText)
            fieldLength[slot] = written
            fieldBits[slot] = value.bitPattern
        } else {
            fieldLength[slot] = 0
        }
    }

    /// A field slot's size in bytes, in three 16-byte moves rather than a call to memmove for
    /// a dozen bytes.
    @inline(__always)
    private static func copySlot(from: UnsafePointer<UInt8>, to: UnsafeMutablePointer<UInt8>) {
        let source = UnsafeRawPointer(from)
        let destination = UnsafeMutableRawPointer(to)
        typealias Block = SIMD16<UInt8>
        destination.storeBytes(of: source.loadUnaligned(as: Block.self), as: Block.self)
        destination.storeBytes(of: source.loadUnaligned(fromByteOffset: 16, as: Block.self), toByteOffset: 16, as: Block.self)
        destination.storeBytes(of: source.loadUnaligned(fromByteOffset: 32, as: Block.self), toByteOffset: 32, as: Block.self)
    }

    /// The bytes written so far, valid until the next write.
    package func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: storage, count: count))
    }

    /// Forgets the bytes written, keeping the buffer.
    package mutating func removeAll() { count = 0 }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    package mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(count + extra) }
    }

    private mutating func grow(_ needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newStorage = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newStorage.update(from: storage, count: count)
        storage.deallocate()
        storage = newStorage
        capacity = newCapacity
    }

    /// Appends one byte.
    @inline(__always)
    package mutating func byte(_ value: UInt8) {
        reserve(1)
        storage[count] = value
        count += 1
    }

    /// Appends ASCII text that needs no escaping.
    @inline(__always)
    package mutating func raw(_ text: StaticString) {
        let n = text.utf8CodeUnitCount
        reserve(n)
        (storage + count).update(from: text.utf8Start, count: n)
        count += n
    }

    private mutating func raw(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        reserve(bytes.count)
        (storage + count).update(from: base, count: bytes.count)
        count += bytes.count
    }

    /// Appends `key` (`,"name":`) and `value` as a JSON string, when `value` is known.
    package mutating func stringField(_ key: StaticString, _ value: String?) {
        guard let value else { return }
        raw(key)
        string(value)
    }

    /// Appends a JSON string literal, quoted and escaped: JSON's own escapes, and `\u00XX` for
    /// every control character, C0, DEL and C1 alike. JSON lets DEL and C1 (U+0080 to U+009F)
    /// stand as they are, but a terminal that reads UTF-8 obeys C1's CSI and OSC, so a device
    /// name from gpsd or a log's file name printed with `--json` could move the cursor or
    /// retitle the window.
    package mutating func string(_ value: String) {
        reserve(2)
        storage[count] = UInt8(ascii: "\"")
        count += 1
        Self.forEachByte(of: value.utf8) { unit, isC1 in
            if isC1 { return escapedControl(unit) }
            switch unit {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case 0x0A: raw("\\n")
            case 0x0D: raw("\\r")
            case 0x09: raw("\\t")
            case 0..<0x20, 0x7F: escapedControl(unit)
            default: byte(unit)
            }
        }
        byte(UInt8(ascii: "\""))
    }

    /// Appends `\u00XX` for the control character `value`.
    private mutating func escapedControl(_ value: UInt8) {
        raw("\\u00")
        byte(Self.hexDigit(value >> 4))
        byte(Self.hexDigit(value & 0xF))
    }

    /// `json` (JSONEncoder's output) with its DEL and C1 characters written `\u00XX`, as
    /// ``string(_:)`` writes them: they occur in its strings only, where the escape means the same.
    package static func escapingControls(_ json: some Sequence<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        forEachByte(of: json) { unit, isC1 in
            if isC1 || unit == 0x7F {
                out += Array("\\u00".utf8) + [hexDigit(unit >> 4), hexDigit(unit & 0xF)]
            } else {
                out.append(unit)
            }
        }
        return out
    }

    /// Calls `body` with each byte of the UTF-8 text `bytes`, except that a C1 control character
    /// (U+0080 to U+009F, the bytes C2 80 to C2 9F) comes as one call with its code and `isC1`.
    private static func forEachByte(of bytes: some Sequence<UInt8>, _ body: (_ unit: UInt8, _ isC1: Bool) -> Void) {
        // C2 starts U+0080 to U+00BF: C1 when the next byte is below A0.
        var lead = false
        for unit in bytes {
            if lead {
                lead = false
                if (0x80...0x9F).contains(unit) {
                    body(unit, true)
                    continue
                }
                body(0xC2, false)
            }
            if unit == 0xC2 { lead = true } else { body(unit, false) }
        }
        if lead { body(0xC2, false) }
    }

    /// Appends again the `length` bytes written at `offset` (which must end at or before the
    /// end of what is written): a line's opening, repeated for the lines after it.
    @inline(__always)
    mutating func repeatBytes(at offset: Int, length: Int) {
        reserve(length)
        (storage + count).update(from: storage + offset, count: length)
        count += length
    }

    @inline(__always)
    private static func hexDigit(_ v: UInt8) -> UInt8 { v < 10 ? 0x30 + v : 0x61 + v - 10 }

    /// Appends an integer in decimal.
    package mutating func integer(_ value: Int) {
        if value < 0 {
            byte(UInt8(ascii: "-"))
            unsigned(UInt64(value.magnitude), minimumDigits: 1)
        } else {
            unsigned(UInt64(value), minimumDigits: 1)
        }
    }

    private static let pairs: StaticString =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    @inline(__always)
    private mutating func unsigned(_ value: UInt64, minimumDigits: Int) {
        let digits = max(Self.digitCount(value), minimumDigits)
        reserve(digits)
        var first = Self.writeDigits(value, before: storage + count + digits)
        while first > storage + count {
            first -= 1
            first.pointee = 0x30
        }
        count += digits
    }

    /// Writes the two digits of `value` (0 to 99) at `p`.
    @inline(__always)
    private static func writePair(_ value: Int, to p: UnsafeMutablePointer<UInt8>) {
        let table = pairs.utf8Start
        p[0] = table[value &* 2]
        p[1] = table[value &* 2 &+ 1]
    }

    /// Writes the decimal digits of `value` right to left, the last just before `end`, two at a
    /// time and by divisions by constants only; returns where the first digit is.
    @inline(__always)
    private static func writeDigits(_ value: UInt64, before end: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        var v = value
        var q = end
        while v >= 100 {
            q -= 2
            writePair(Int(v % 100), to: q)
            v /= 100
        }
        if v >= 10 {
            q -= 2
            writePair(Int(v), to: q)
        } else {
            q -= 1
            q.pointee = UInt8(truncatingIfNeeded: v) &+ 0x30
        }
        return q
    }

    /// Decimal digits of `v`, by binary search on powers of ten.
    @inline(__always)
    private static func digitCount(_ v: UInt64) -> Int {
        if v < 100_000_000 {
            if v < 10_000 {
                if v < 100 { return v < 10 ? 1 : 2 }
                return v < 1000 ? 3 : 4
            }
            if v < 1_000_000 { return v < 100_000 ? 5 : 6 }
            return v < 10_000_000 ? 7 : 8
        }
        if v < 1_000_000_000_000 {
            if v < 10_000_000_000 { return v < 1_000_000_000 ? 9 : 10 }
            return v < 100_000_000_000 ? 11 : 12
        }
        if v < 100_000_000_000_000 { return v < 10_000_000_000_000 ? 13 : 14 }
        if v < 10_000_000_000_000_000 { return v < 1_000_000_000_000_000 ? 15 : 16 }
        if v < 1_000_000_000_000_000_000 { return v < 100_000_000_000_000_000 ? 17 : 18 }
        return v < 10_000_000_000_000_000_000 ? 19 : 20
    }

    /// Appends `value` with exactly `decimals` (0…12) digits after the point, as `printf("%.{decimals}f")` would.
    ///
    /// Non-finite values must not reach JSON; callers skip them.
    package mutating func fixed(_ value: Double, decimals: Int) {
        let decimals = min(max(decimals, 0), 12)
        let scaled = value * PowersOfTen.exact(decimals)
        let magnitude = scaled.magnitude
        // Below 1e14 the product's rounding error is under 0.01, so a fraction not within 0.02 of
        // one half rounds the same way as the exact binary value; anything else takes the exact path.
        if magnitude < 1e14 {
            // Below 2^53: the conversion to an integer is the floor, exactly, without a call to
            // libm's floor (baseline x86-64 has no instruction for it) or the longer conversion
            // of a Double to an unsigned integer.
            let whole = Int64(magnitude)
            let fraction = magnitude - Double(whole)
            if abs(fraction - 0.5) > 0.02 {
                appendFixed(units: UInt64(fraction > 0.5 ? whole &+ 1 : whole),
                            negative: value.sign == .minus, decimals: decimals)
                return
            }
        }
        exactFixed(value, decimals: decimals)
    }

    /// ``fixed(_:decimals:)`` for a value whose scaled fraction is near one half: the value is a
    /// binary fraction, significand × 2^exponent, so it is scaled by 10^decimals and rounded in
    /// 128-bit integers, exactly, half to even, as glibc's printf rounds. Only a value whose
    /// scaled magnitude passes 2^64 (none a receiver reports) is left to `vsnprintf`.
    private mutating func exactFixed(_ value: Double, decimals: Int) {
        let bits = value.bitPattern
        let biased = Int((bits >> 52) & 0x7FF)
        let fraction = bits & (1 << 52 - 1)
        // A subnormal has no implicit leading one and the smallest exponent.
        let significand = biased == 0 ? fraction : fraction | 1 << 52
        let exponent = (biased == 0 ? 1 : biased) - 1075
        // 10^decimals is exact in a Double (decimals is at most 12).
        let scaled = UInt128(significand) * UInt128(UInt64(PowersOfTen.exact(decimals)))
        var units: UInt128
        if exponent >= 0 {
            units = exponent < 64 && scaled >> (64 - exponent) == 0 ? scaled << exponent : .max
        } else if -exponent >= 128 {
            // Below 2^-35 after scaling: under one half, so it rounds to zero.
            units = 0
        } else {
            let shift = -exponent
            units = scaled >> shift
            let rest = scaled & (1 << shift - 1)
            let half = UInt128(1) << (shift - 1)
            if rest > half || (rest == half && units & 1 == 1) { units += 1 }
        }
        guard units <= UInt128(UInt64.max) else {
            printfFixed(value, decimals: decimals)
            return
        }
        appendFixed(units: UInt64(units), negative: value.sign == .minus, decimals: decimals)
    }

    /// `units` / 10^decimals in decimal, with exactly `decimals` digits after the point, and a
    /// minus sign when `negative` (printf keeps it on a value that rounds to zero).
    @inline(__always)
    private mutating func appendFixed(units value: UInt64, negative: Bool, decimals: Int) {
        var units = value
        reserve(40)
        var p = storage + count
        if negative {
            p.pointee = UInt8(ascii: "-")
            p += 1
        }
        // All digits of `units` right to left, the point `decimals` digits from the end.
        let digits = max(Self.digitCount(units), decimals + 1)
        let length = digits + (decimals > 0 ? 1 : 0)
        var q = p + length
        p = q
        var left = decimals
        while left >= 2 {
            q -= 2
            Self.writePair(Int(units % 100), to: q)
            units /= 100
            left -= 2
        }
        if left == 1 {
            q -= 1
            q.pointee = UInt8(truncatingIfNeeded: units % 10) &+ 0x30
            units /= 10
        }
        if decimals > 0 {
            q -= 1
            q.pointee = UInt8(ascii: ".")
        }
        _ = Self.writeDigits(units, before: q)
        count = p - storage
    }

    private mutating func printfFixed(_ value: Double, decimals: Int) {
        var buffer = [CChar](repeating: 0, count: 352)
        let written = buffer.withUnsafeMutableBufferPointer { out -> Int32 in
            withVaList([Int32(decimals), value]) { args in
                vsnprintf(out.baseAddress, out.count, "%.*f", args)
            }
        }
        guard written > 0 else { return }
        let n = min(Int(written), buffer.count - 1)
        buffer.withUnsafeBytes { raw($0.bindMemory(to: UInt8.self).prefix(n)) }
    }

    private mutating func raw(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) {
        raw(UnsafeBufferPointer(rebasing: bytes))
    }

    /// Appends an ISO 8601 UTC timestamp with milliseconds, quoted, as gpsd prints `time`:
    /// `"2017-01-10T00:09:42.000Z"`.
    /// A time beyond year 9999 either way (``UTCTime`` has no text for it) is written as the
    /// epoch, which no receiver reports: the line stays valid JSON.
    package mutating func isoTime(secondsSince1970 seconds: Double) {
        let time = UTCTime(secondsSince1970: seconds) ?? UTCTime.epoch
        let days = time.days
        let ms = UInt64(time.millisecondOfDay)
        reserve(32)
        storage[count] = UInt8(ascii: "\"")
        count += 1
        if cachedDay == days {
            // Sixteen bytes stored, ten kept: what lies past them is overwritten next.
            let to = UnsafeMutableRawPointer(storage + count)
            to.storeBytes(of: cachedDate.0, as: UInt64.self)
            to.storeBytes(of: cachedDate.1, toByteOffset: 8, as: UInt64.self)
            count += 10
        } else {
            // Written once, then kept for the fixes of the same day when it is the usual ten bytes.
            let civil = CivilDate(daysSince1970: Int(days))
            let mark = count
            unsigned(UInt64(max(0, civil.year)), minimumDigits: 4)
            byte(UInt8(ascii: "-"))
            unsigned(UInt64(civil.month), minimumDigits: 2)
            byte(UInt8(ascii: "-"))
            unsigned(UInt64(civil.day), minimumDigits: 2)
            if count - mark == 10 {
                withUnsafeMutableBytes(of: &cachedDate) { $0.copyMemory(from: UnsafeRawBufferPointer(start: storage + mark, count: 10)) }
                cachedDay = days
            } else {
                cachedDay = .min
            }
        }
        // The time of day, `Thh:mm:ss.mmmZ"`, straight into the buffer, two digits at a time.
        let secondsOfDay = Int(ms / 1000)
        let milliseconds = Int(ms % 1000)
        reserve(15)
        let p = storage + count
        p[0] = UInt8(ascii: "T")
        Self.writePair(secondsOfDay / 3600, to: p + 1)
        p[3] = UInt8(ascii: ":")
        Self.writePair(secondsOfDay / 60 % 60, to: p + 4)
        p[6] = UInt8(ascii: ":")
        Self.writePair(secondsOfDay % 60, to: p + 7)
        p[9] = UInt8(ascii: ".")
        p[10] = UInt8(truncatingIfNeeded: milliseconds / 100) &+ 0x30
        Self.writePair(milliseconds % 100, to: p + 11)
        p[13] = UInt8(ascii: "Z")
        p[14] = UInt8(ascii: "\"")
        count += 15
    }
}
