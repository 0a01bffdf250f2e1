/// A strict check of one line of JSON (RFC 8259), before libgps parses it.
///
/// libgps's parser is lenient where GeoTrack must not be: it reads `"lat":0x33` as 0 and
/// `NaN` or `Infinity` as numbers, and keeps the fields it read before a syntax error. A line
/// that fails this check is dropped whole, so no field of a garbled message is believed.
enum JSONSyntax {
    /// gpsd nests three deep (SKY → satellites → one satellite); anything far deeper is not gpsd.
    static let maximumDepth = 16

    /// Whether `bytes` is exactly one JSON object, with only whitespace around it.
    static func isObject(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        var scanner = Scanner(base: base, count: bytes.count)
        scanner.skipWhitespace()
        guard scanner.peek == UInt8(ascii: "{"), scanner.value(depth: 0) else { return false }
        scanner.skipWhitespace()
        return scanner.isAtEnd
    }

    private struct Scanner {
        let base: UnsafePointer<UInt8>
        let count: Int
        var index = 0

        init(base: UnsafePointer<UInt8>, count: Int) {
            self.base = base
            self.count = count
        }

        var isAtEnd: Bool { index >= count }
        /// The current byte, or 0 at the end (0 is never valid where a byte is looked at).
        var peek: UInt8 { index < count ? base[index] : 0 }

        mutating func skipWhitespace() {
            while index < count {
                switch base[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        mutating func consume(_ byte: UInt8) -> Bool {
            guard peek == byte else { return false }
            index += 1
            return true
        }

        mutating func value(depth: Int) -> Bool {
            switch peek {
            case UInt8(ascii: "{"): return depth < JSONSyntax.maximumDepth && object(depth: depth + 1)
            case UInt8(ascii: "["): return depth < JSONSyntax.maximumDepth && array(depth: depth + 1)
            case UInt8(ascii: "\""): return string()
            case UInt8(ascii: "t"): return literal("true")
            case UInt8(ascii: "f"): return literal("false")
            case UInt8(ascii: "n"): return literal("null")
            default: return number()
            }
        }

        mutating func object(depth: Int) -> Bool {
            index += 1 // {
            skipWhitespace()
            if consume(UInt8(ascii: "}")) { return true }
            while true {
                skipWhitespace()
                guard peek == UInt8(ascii: "\""), string() else { return false }
                skipWhitespace()
                guard consume(UInt8(ascii: ":")) else { return false }
                skipWhitespace()
                guard value(depth: depth) else { return false }
                skipWhitespace()
                if consume(UInt8(ascii: "}")) { return true }
                guard consume(UInt8(ascii: ",")) else { return false }
            }
        }

        mutating func array(depth: Int) -> Bool {
            index += 1 // [
            skipWhitespace()
            if consume(UInt8(ascii: "]")) { return true }
            while true {
                skipWhitespace()
                guard value(depth: depth) else { return false }
                skipWhitespace()
                if consume(UInt8(ascii: "]")) { return true }
                guard consume(UInt8(ascii: ",")) else { return false }
            }
        }

        mutating func string() -> Bool {
            index += 1 // "
            while index < count {
                let byte = base[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return true
                case UInt8(ascii: "\\"):
                    switch peek {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                         UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        index += 1
                    case UInt8(ascii: "u"):
                        index += 1
                        for _ in 0..<4 {
                            guard isHexDigit(peek) else { return false }
                            index += 1
                        }
                    default:
                        return false
                    }
                case 0..<0x20:
                    // Raw control characters (a NUL, an escape, a newline) are not JSON.
                    return false
                default:
                    continue
                }
            }
            return false
        }

        mutating func number() -> Bool {
            _ = consume(UInt8(ascii: "-"))
            if consume(UInt8(ascii: "0")) {
                // No leading zeros: "0x33" and "012" stop here and fail at the next byte.
            } else {
                guard digits() else { return false }
            }
            if consume(UInt8(ascii: ".")) {
                guard digits() else { return false }
            }
            if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
                index += 1
                if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
                guard digits() else { return false }
            }
            return true
        }

        /// One or more decimal digits.
        mutating func digits() -> Bool {
            let first = index
            while index < count, base[index] >= UInt8(ascii: "0"), base[index] <= UInt8(ascii: "9") { index += 1 }
            return index > first
        }

        mutating func literal(_ word: StaticString) -> Bool {
            let length = word.utf8CodeUnitCount
            guard count - index >= length else { return false }
            for offset in 0..<length where base[index + offset] != word.utf8Start[offset] { return false }
            index += length
            return true
        }

        func isHexDigit(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
                 UInt8(ascii: "A")...UInt8(ascii: "F"): true
            default: false
            }
        }
    }
}
