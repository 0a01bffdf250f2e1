import CNMEA
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
///
/// The bulk JSON path (the TPVJSONBulk module) uses it through a small `package` API: it is fed
/// bytes (``consume(_:readable:atEnd:into:)``), hands out the TPV numbers of its fixes
/// (``init(collectingFixesFor:)``, ``drainFixes(_:)``), and its decoding state can be taken as a
/// value, compared and restored (``state``, ``State``, ``restore(_:)``).
package struct NMEAStreamDecoder: ~Copyable {
    /// gpsd's NMEA_MAX: the longest sentence it accepts, CR LF included.
    static let maximumSentence = 102
    /// Longest line looked at; anything longer is skipped up to its end.
    static let maximumLine = 256

    /// The cycle assembler, fed with every verified sentence: its state.
    var assembler: NMEACycleAssembler
    /// What the assembler keeps beside its state: memos, and the fixes it collected.
    var workspace = NMEACycleAssembler.Workspace()
    /// Counts of what was read and skipped.
    package var statistics = ReplayStatistics()

    var atLineStart = true
    var inJunk = false
    var skipping = false
    var checksumsSeen = false
    /// The field separators of the sentence being decoded (``NMEAFields/bounds``).
    private let bounds: UnsafeMutablePointer<Int32>
    /// The commas of the line being framed, sixteen bytes to a mask: bit j of mask k is the byte
    /// 1 + 16k + j after the line's first, up to its `*` or its end (as ``geotrack_nmea_scan`` sets them).
    private let commas: UnsafeMutablePointer<UInt16>
    private static let commaBlocks = Int(GEOTRACK_NMEA_SCAN_BLOCKS)
    /// Bytes a line needs after its start for the one-pass framing.
    package static let scanReadable = Int(GEOTRACK_NMEA_SCAN_READABLE)

    init(device: String?) {
        assembler = NMEACycleAssembler(device: device)
        bounds = .allocate(capacity: NMEAFields.capacity + 1)
        commas = .allocate(capacity: Self.commaBlocks)
        commas.initialize(repeating: 0, count: Self.commaBlocks)
    }

    deinit {
        bounds.deallocate()
        commas.deallocate()
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
        consume(bytes, readable: bytes.count, atEnd: atEnd, into: &reports)
    }

    /// ``consume(_:atEnd:into:)`` where the `readable` bytes from `bytes`' start (at least
    /// `bytes.count`, all initialized) may be looked at, though only `bytes` are consumed: the
    /// one-pass framing needs ``scanReadable`` bytes after a line's start, and a caller that
    /// stops at a point in its buffer (a checkpoint, a slice's end) keeps it for the lines
    /// just before that point.
    package mutating func consume(_ bytes: UnsafeBufferPointer<UInt8>, readable: Int, atEnd: Bool,
                                  into reports: inout [Report]) -> Int {
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
            if b == Self.dollar && readable - i >= Self.scanReadable {
                // The common case, a plain sentence with its checksum, framed in one pass; any
                // other line goes through the byte-by-byte path below, which frames the same
                // lines the same way.
                var sum: UInt8 = 0
                let offset = Int(geotrack_nmea_scan(base + i, commas, &sum))
                // Past the line's end (LF or CR LF): it must lie in what is to be consumed, not
                // only in what may be read; a line that ends later is left to the path below.
                let next = offset < 0 ? n + 1 : base[i + offset + 3] == Self.lf ? i + offset + 4 : i + offset + 5
                if next <= n {
                    let star = i + offset
                    handleSentence(base, start: i, end: star + 3, star: star, sum: sum, into: &reports)
                    // At the next line at once, as the loop would have gone a byte at a time:
                    // a line ended, and nothing else changes.
                    atLineStart = true
                    i = next
                    continue
                }
            }
            if b == Self.dollar || b == Self.bang {
                var j = i + 1
                var sum: UInt8 = 0
                var star = -1
                var broken = false
                let limit = min(n, i + Self.maximumLine)
                commas.update(repeating: 0, count: Self.commaBlocks)
                while j < limit {
                    let c = base[j]
                    if c == Self.cr || c == Self.lf || c == Self.dollar { break }
                    if c < 0x20 || c > 0x7E {
                        broken = true
                        break
                    }
                    if star < 0 {
                        if c == Self.star {
                            star = j
                        } else {
                            sum ^= c
                            if c == Self.comma {
                                let at = j &- i &- 1
                                commas[at &>> 4] |= 1 &<< UInt16(truncatingIfNeeded: at & 15)
                            }
                        }
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
                i = j < n && !skipping ? Self.sentenceInComment(base, start: i, end: j) : j
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
        let end = star >= 0 ? star : e
        // The tag is field 0: five characters, then a comma or the end.
        let tagged = end - s >= 6 && (end == s + 6 || base[s + 6] == Self.comma)
        // Of the proprietary sentences, gpsd's NMEA driver reads Garmin's error estimates and
        // altitude, and SiRF's error estimates, into a fix.
        let known = proprietary ? Self.proprietaryType(base, start: s, end: end) : nil
        if (proprietary && known == nil) || base[s] == Self.bang {
            if proprietary { statistics.proprietary += 1 } else { statistics.unknown += 1 }
            // AIS goes to gpsd's AIVDM driver, not its NMEA one.
            assembler.noteOtherSentence(reachesNMEADriver: base[s] != Self.bang, &workspace, into: &reports)
            return
        }
        // The type comes from the tag before the sentence is split: a sentence of no known type
        // needs no fields.
        guard tagged || known != nil, base[s + 1] != Self.comma, base[s + 2] != Self.comma,
              let type = known ?? NMEASentenceType.lookup(base[s + 3], base[s + 4], base[s + 5])
        else {
            statistics.unknown += 1
            assembler.noteOtherSentence(&workspace, into: &reports)
            return
        }
        // A sentence here is at most 100 bytes, so its commas are fewer than NMEAFields.capacity
        // and no bound is checked per comma; the offsets fit in an Int32 as the buffer does.
        guard end - s < NMEAFields.capacity else {
            statistics.oversized += 1
            return
        }
        let bounds = self.bounds
        // The `$` before the tag, then each field's end, a comma or the end.
        bounds[0] = Int32(truncatingIfNeeded: s)
        var stored = 0
        @inline(__always) func endField(at: Int) {
            stored &+= 1
            bounds[stored] = Int32(truncatingIfNeeded: at)
        }
        // The commas the framing noted, lowest first, four blocks to a word: bit k of word w is
        // the byte 1 + 64w + k after the `$`. A loop per block paid its exit test and its
        // bookkeeping for every block; one per word does so twice per sentence at most.
        // The framing leaves the blocks after the `*`'s as they were, so what lies at or past
        // `end` is masked off.
        var wordStart = s + 1
        var blocks = commas
        while wordStart < end {
            var found = UInt64(blocks[0]) | UInt64(blocks[1]) &<< 16 | UInt64(blocks[2]) &<< 32
                | UInt64(blocks[3]) &<< 48
            let remaining = end &- wordStart
            if remaining < 64 { found &= (1 &<< UInt64(remaining)) &- 1 }
            while found != 0 {
                endField(at: wordStart &+ found.trailingZeroBitCount)
                found &= found &- 1
            }
            blocks += 4
            wordStart &+= 64
        }
        endField(at: end)
        let fields = NMEAFields(base: base, bounds: bounds, stored: stored,
                                count: star >= 0 ? stored : stored - 1)
        let before = reports.count
        switch assembler.process(type, fields, &workspace, into: &reports) {
        case .decoded: statistics.decoded += 1
        case .tooShort, .invalid: statistics.invalidValues += 1
        }
        statistics.reports += reports.count - before
    }

    /// The proprietary sentence the tag from `start` (the `$`) names, if the decoder reads it:
    /// `PGRME` and `PGRMZ` (a comma or the end after them), or `PSRFEPE`.
    private static func proprietaryType(_ base: UnsafePointer<UInt8>, start s: Int, end: Int) -> NMEASentenceType? {
        func tag(_ letters: StaticString) -> Bool {
            let n = letters.utf8CodeUnitCount
            guard end - s > n, end == s + 1 + n || base[s + 1 + n] == comma else { return false }
            for k in 0..<n where base[s + 1 + k] != letters.utf8Start[k] { return false }
            return true
        }
        if tag("PGRME") { return .pgrme }
        if tag("PGRMZ") { return .pgrmz }
        if tag("PSRFEPE") { return .psrfepe }
        return nil
    }

    /// Where to go on after the comment line `start..<end`: its end, or the first `$` or `!` in
    /// it when gpsd 3.22 would read a sentence there.
    ///
    /// gpsd's lexer takes a `#` line as a comment only when nothing but printable characters
    /// come before its LF. At any other byte, the CR of a CRLF log among them, it drops the `#`
    /// alone and reads the rest of the line again as data, so a sentence quoted in such a log's
    /// header (Quectel LC79D's `#   $GAGSV,…`) is decoded like any other.
    private static func sentenceInComment(_ base: UnsafePointer<UInt8>, start: Int, end: Int) -> Int {
        if base[end] == Self.lf && !(start + 1..<end).contains(where: { base[$0] < 0x20 || base[$0] > 0x7E }) {
            return end
        }
        return (start + 1..<end).first { base[$0] == Self.dollar || base[$0] == Self.bang } ?? end
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
