#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GPSReports

/// Frames NMEA sentences out of raw bytes and feeds them to the cycle assembler.
///
/// It reads what a serial line or a recorded log really holds: `$`/`!` sentences ended by
/// CR LF, LF or CR, `#` comment lines, and anything else (binary protocols, noise, cut
/// sentences), which it skips and counts. Every byte is looked at once; nothing is copied.
///
/// Checksums are verified in upper- or lower-case hex. A sentence without a checksum is
/// accepted, as gpsd accepts it (NMEA 0183 makes the checksum optional for some talkers,
/// and old receivers omit it), but only until the receiver has sent one checksummed
/// sentence: from then on a missing checksum means a corrupted `*` and the sentence is dropped.
struct NMEAStreamDecoder: ~Copyable {
    /// gpsd's NMEA_MAX: the longest sentence it accepts, CR LF included.
    static let maximumSentence = 102
    /// Longest line looked at; anything longer is skipped up to its end.
    static let maximumLine = 256

    /// The cycle assembler, fed with every verified sentence.
    var assembler: NMEACycleAssembler
    /// Counts of what was read and skipped.
    var statistics = ReplayStatistics()

    var atLineStart = true
    var inJunk = false
    var skipping = false
    var checksumsSeen = false
    private let starts: UnsafeMutablePointer<Int32>
    private let ends: UnsafeMutablePointer<Int32>

    init(device: String?) {
        assembler = NMEACycleAssembler(device: device)
        starts = .allocate(capacity: NMEAFields.capacity)
        ends = .allocate(capacity: NMEAFields.capacity)
    }

    deinit {
        starts.deallocate()
        ends.deallocate()
    }

    /// Whether the line at `start` is a plain, well-formed sentence: `$`, printable ASCII without
    /// `$` or `*`, then `*hh` and LF or CR LF, all within ``maximumLine``. The common case, checked
    /// sixteen bytes at a time; anything else goes through the byte-by-byte path. `next` is the
    /// byte after the line feed.
    @inline(__always)
    private static func fastLine(_ base: UnsafePointer<UInt8>, _ start: Int, _ n: Int)
        -> (end: Int, star: Int, sum: UInt8, next: Int)? {
        let window = min(n - start, maximumLine)
        guard let found = memchr(base + start, 0x0A, window) else { return nil }
        let newline = start + (UnsafeRawPointer(found) - UnsafeRawPointer(base + start))
        var end = newline
        if end > start && base[end - 1] == cr { end -= 1 }
        let star = end - 3
        // At least sixteen bytes between `$` and `*` (an NMEA sentence with a checksum has more),
        // so the last load can overlap the one before it.
        guard star > start + 16, base[star] == UInt8(ascii: "*") else { return nil }
        typealias Bytes = SIMD16<UInt8>
        var sum = Bytes()
        var unusual = Bytes()
        var k = start + 1
        while k + 16 <= star {
            let bytes = UnsafeRawPointer(base + k).loadUnaligned(as: Bytes.self)
            sum ^= bytes
            unusual |= Self.unusualBytes(bytes)
            k += 16
        }
        if k < star {
            // The last sixteen bytes before `*`: the lanes below k, seen already, are left out
            // of the checksum and read as a harmless "A" by the test.
            let last = star - 16
            let bytes = UnsafeRawPointer(base + last).loadUnaligned(as: Bytes.self)
            // Lanes are bytes in memory order, so each half of the mask is a little-endian word.
            let seen = UInt64(truncatingIfNeeded: k - last) &* 8
            let low: UInt64 = seen >= 64 ? 0 : ~0 &<< seen
            let high: UInt64 = seen <= 64 ? ~0 : ~0 &<< (seen &- 64)
            let fresh = unsafeBitCast(SIMD2<UInt64>(low.littleEndian, high.littleEndian), to: Bytes.self)
            sum ^= bytes & fresh
            unusual |= Self.unusualBytes((bytes & fresh) | (Bytes(repeating: 0x41) & ~fresh))
        }
        let halves = unsafeBitCast(sum, to: SIMD2<UInt64>.self)
        var folded = halves[0] ^ halves[1]
        folded ^= folded &>> 32
        folded ^= folded &>> 16
        folded ^= folded &>> 8
        let flags = unsafeBitCast(unusual, to: SIMD2<UInt64>.self)
        let h1 = base[star + 1], h2 = base[star + 2]
        guard (flags[0] | flags[1]) & 0x8080_8080_8080_8080 == 0,
              (h1 &- 0x20) <= 0x5E, (h2 &- 0x20) <= 0x5E, h1 != 0x24, h2 != 0x24
        else { return nil }
        return (end, star, UInt8(truncatingIfNeeded: folded), newline + 1)
    }

    /// The bytes of `bytes` that are not printable ASCII, or are `$` or `*`, with their high bit
    /// set. Byte-wise arithmetic, so each lane is exact.
    @inline(__always)
    private static func unusualBytes(_ bytes: SIMD16<UInt8>) -> SIMD16<UInt8> {
        let ones = SIMD16<UInt8>(repeating: 1)
        let control = (bytes &- SIMD16(repeating: 0x20)) & ~bytes     // below 0x20
        let beyond = (bytes &+ ones) | bytes                            // 0x7F and above
        let dollar = bytes ^ SIMD16(repeating: 0x24)
        let star = bytes ^ SIMD16(repeating: 0x2A)
        return control | beyond | ((dollar &- ones) & ~dollar) | ((star &- ones) & ~star)
    }

    private static let cr: UInt8 = 0x0D
    private static let lf: UInt8 = 0x0A
    private static let dollar = UInt8(ascii: "$")
    private static let bang = UInt8(ascii: "!")
    private static let star = UInt8(ascii: "*")
    private static let comma = UInt8(ascii: ",")

    /// Consumes whole lines of `bytes` and returns how many bytes it used.
    ///
    /// It stops early once `reports` is not empty, so the caller can hand them out, and leaves
    /// an unfinished last line (shorter than ``maximumLine``) unless `atEnd` says no more will come.
    mutating func consume(_ bytes: UnsafeBufferPointer<UInt8>, atEnd: Bool, into reports: inout [Report]) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let n = bytes.count
        var i = 0
        while i < n {
            if !reports.isEmpty { return i }
            if skipping {
                while i < n && base[i] != Self.lf && base[i] != Self.cr { i += 1 }
                if i < n { skipping = false }
                continue
            }
            let b = base[i]
            if b == Self.dollar, let line = Self.fastLine(base, i, n) {
                handleSentence(base, start: i, end: line.end, star: line.star, sum: line.sum, into: &reports)
                // Past the line's end (LF or CR LF) at once, as the loop would have gone a byte at
                // a time: a line ended, and nothing else changes.
                atLineStart = true
                i = line.next
                continue
            }
            if b == Self.dollar || b == Self.bang {
                var j = i + 1
                var sum: UInt8 = 0
                var star = -1
                var broken = false
                let limit = min(n, i + Self.maximumLine)
                while j < limit {
                    let c = base[j]
                    if c == Self.cr || c == Self.lf || c == Self.dollar { break }
                    if c < 0x20 || c > 0x7E {
                        broken = true
                        break
                    }
                    if star < 0 {
                        if c == Self.star { star = j } else { sum ^= c }
                    }
                    j += 1
                }
                if j == limit {
                    if j - i >= Self.maximumLine {
                        statistics.oversized += 1
                        noteJunk()
                        skipping = true
                        atLineStart = false
                        i = j
                        continue
                    }
                    if !atEnd { return i }
                }
                atLineStart = false
                if broken || (j < n && base[j] == Self.dollar) {
                    // A sentence cut short by binary data or by the next sentence.
                    noteJunk()
                    i = j
                    continue
                }
                handleSentence(base, start: i, end: j, star: star, sum: sum, into: &reports)
                i = j
            } else if b == Self.lf || b == Self.cr {
                atLineStart = true
                i += 1
            } else if b == UInt8(ascii: "#") && atLineStart {
                var j = i + 1
                let limit = min(n, i + Self.maximumLine)
                while j < limit && base[j] != Self.lf && base[j] != Self.cr { j += 1 }
                if j == limit && j - i < Self.maximumLine && !atEnd { return i }
                if j - i >= Self.maximumLine { skipping = true }
                handleComment(base, start: i, end: j)
                atLineStart = false
                i = j
            } else if b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") {
                i += 1
            } else {
                noteJunk()
                atLineStart = false
                i += 1
            }
        }
        return i
    }

    @inline(__always)
    private mutating func noteJunk() {
        if !inJunk {
            statistics.junkRuns += 1
            inJunk = true
        }
    }

    @inline(__always)
    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: c - 0x30
        case 0x41...0x46: c - 0x41 + 10
        case 0x61...0x66: c - 0x61 + 10
        default: nil
        }
    }

    private mutating func handleSentence(_ base: UnsafePointer<UInt8>, start s: Int, end e: Int, star: Int, sum: UInt8,
                                into reports: inout [Report]) {
        statistics.sentences += 1
        inJunk = false
        let proprietary = base[s] == Self.dollar && e - s > 2 && base[s + 1] == UInt8(ascii: "P")
            && base[s + 2] != UInt8(ascii: "Q")
        if star >= 0 {
            guard e - star == 3, let high = Self.hexValue(base[star + 1]), let low = Self.hexValue(base[star + 2]),
                  high << 4 | low == sum
            else {
                statistics.badChecksums += 1
                return
            }
            checksumsSeen = true
        } else if !proprietary && checksumsSeen {
            statistics.missingChecksums += 1
            return
        }
        if e - s + 2 > Self.maximumSentence {
            statistics.oversized += 1
            return
        }
        if proprietary || base[s] == Self.bang {
            if proprietary { statistics.proprietary += 1 } else { statistics.unknown += 1 }
            assembler.noteOtherSentence()
            return
        }
        let end = star >= 0 ? star : e
        // The type comes from the tag (field 0: five characters, then a comma or the end) before
        // the sentence is split: a sentence of no known type needs no fields, nor does a GSV
        // when no sky view is wanted. GSVs are two in five sentences of a typical log.
        guard end - s >= 6, end == s + 6 || base[s + 6] == Self.comma,
              base[s + 1] != Self.comma, base[s + 2] != Self.comma,
              let type = NMEASentenceType.lookup(base[s + 3], base[s + 4], base[s + 5])
        else {
            statistics.unknown += 1
            assembler.noteOtherSentence()
            return
        }
        if type == .gsv && !assembler.wantsSky {
            assembler.noteUnbuiltSkyView()
            statistics.decoded += 1
            return
        }
        // A sentence here is at most 100 bytes, so its commas are fewer than NMEAFields.capacity
        // and no bound is checked per comma; the offsets fit in an Int32 as the buffer does.
        guard end - s < NMEAFields.capacity else {
            statistics.oversized += 1
            return
        }
        let starts = self.starts, ends = self.ends
        var stored = 0
        var fieldStart = s + 1
        // Stores the field from fieldStart up to `at`, a comma or the end.
        @inline(__always) func endField(at: Int) {
            starts[stored] = Int32(truncatingIfNeeded: fieldStart)
            ends[stored] = Int32(truncatingIfNeeded: at)
            stored &+= 1
            fieldStart = at &+ 1
        }
        let low7 = 0x7F7F_7F7F_7F7F_7F7F as UInt64
        // Eight bytes at a time: XOR with ",,,,,,,," turns commas into zero bytes, and the exact
        // (carry-free) zero-byte test sets the high bit of each of them; walked lowest first.
        @inline(__always) func record(_ word: UInt64, at k: Int, from lane: Int) {
            let commas = word ^ 0x2C2C_2C2C_2C2C_2C2C
            // Lanes below `lane` were recorded already (the last word overlaps the one before).
            var found = ~(((commas & low7) &+ low7) | commas | low7) & (~0 &<< UInt64(lane &* 8))
            while found != 0 {
                endField(at: k &+ found.trailingZeroBitCount &>> 3)
                found &= found &- 1
            }
        }
        var k = s + 1
        while k + 8 <= end {
            record(UnsafeRawPointer(base + k).loadUnaligned(as: UInt64.self).littleEndian, at: k, from: 0)
            k += 8
        }
        if k < end {
            if end - 8 > s {
                // The last eight bytes before the end, of which the first were seen already.
                let last = end - 8
                record(UnsafeRawPointer(base + last).loadUnaligned(as: UInt64.self).littleEndian, at: last, from: k - last)
            } else {
                while k < end {
                    if base[k] == Self.comma { endField(at: k) }
                    k += 1
                }
            }
        }
        endField(at: end)
        let fields = NMEAFields(base: base, starts: starts, ends: ends, stored: stored,
                                count: star >= 0 ? stored : stored - 1)
        let before = reports.count
        switch assembler.process(type, fields, into: &reports) {
        case .decoded: statistics.decoded += 1
        case .tooShort, .invalid: statistics.invalidValues += 1
        }
        statistics.reports += reports.count - before
    }

    /// `# Date: YYYY-MM-DD` in a log's header gives the date to logs whose sentences carry none.
    private mutating func handleComment(_ base: UnsafePointer<UInt8>, start: Int, end: Int) {
        // A StaticString: an array here cost an allocation per comment line.
        let prefix: StaticString = "# Date: "
        let length = prefix.utf8CodeUnitCount
        guard end - start >= length + 10 else { return }
        for k in 0..<length where base[start + k] != prefix.utf8Start[k] { return }
        let p = start + length
        func number(_ from: Int, _ count: Int) -> Int? {
            var value = 0
            for k in from..<(from + count) {
                let d = base[k] &- 0x30
                guard d < 10 else { return nil }
                value = value * 10 + Int(d)
            }
            return value
        }
        guard let year = number(p, 4), base[p + 4] == UInt8(ascii: "-"), let month = number(p + 5, 2),
              base[p + 7] == UInt8(ascii: "-"), let day = number(p + 8, 2) else { return }
        assembler.setDefaultDate(year: year, month: month, day: day)
    }
}
