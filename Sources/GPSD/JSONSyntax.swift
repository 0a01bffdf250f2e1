import CGPS
import GPSReports

/// A strict check of one line of JSON (RFC 8259), before libgps parses it.
///
/// libgps's parser is lenient where GeoTrack must not be: it reads `"lat":0x33` as 0 and
/// `NaN` or `Infinity` as numbers, and keeps the fields it read before a syntax error. A line
/// that fails this check is dropped whole, so no field of a garbled message is believed.
enum JSONSyntax {
    /// gpsd nests three deep (SKY → satellites → one satellite); anything far deeper is not gpsd.
    static let maximumDepth = 16

    /// What a line is.
    enum Verdict: Equatable {
        /// One JSON object in the shape of a gpsd message.
        case object
        /// Not exactly one JSON object.
        case invalid
        /// Valid JSON, but not shaped as gpsd shapes its messages: `"class"` is not the first
        /// key, or a nested object has a `"class"` anywhere but in a DEVICES message's
        /// `devices` list. libgps finds a message's class by searching for the first
        /// `"class":`, and its 3.22 parser loops forever on some such lines
        /// (`{"class":"TPV","x":[{"class":"DEVICE"}]}`).
        ///
        /// An entry of a DEVICES list must also be what libgps reads into its device table: a
        /// DEVICE whose known keys have the types gpsd gives them (strings that fit their
        /// fields), other keys plain values, and no more entries than the table holds. libgps's
        /// `gps_unpack()` in 3.22 loops forever on an entry it fails to parse (found by fuzzing:
        /// `{"class":"DEVICES","devices":[{"class":"DEVICE","bps":"x"}]}`).
        case unexpectedShape
    }

    /// Whether `bytes` is exactly one JSON object, with only whitespace around it.
    static func isObject(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        check(bytes) != .invalid
    }

    /// Checks one line.
    static func check(_ bytes: UnsafeBufferPointer<UInt8>) -> Verdict {
        guard let base = bytes.baseAddress else { return .invalid }
        var scanner = Scanner(base: base, count: bytes.count)
        scanner.skipWhitespace()
        guard scanner.peek == UInt8(ascii: "{"), scanner.value(depth: 0, place: .top) else { return .invalid }
        scanner.skipWhitespace()
        guard scanner.isAtEnd else { return .invalid }
        return scanner.unexpectedShape ? .unexpectedShape : .object
    }

    /// The TPV keys GeoTrack reads into a ``Fix`` and writes back (``Fix/tpvJSON()``): GPSReports'
    /// list, the same the writer follows. A TPV's other keys are kept as gpsd sent them
    /// (``unknownMembers(_:)``).
    static var knownTPVKeys: [StaticString] { JSONWriter.tpvKeys }
    /// The members of gpsd's GST that GeoTrack reads (``PseudorangeNoise``).
    static let knownGSTKeys: [StaticString] = ["class", "device", "time", "rms", "major", "minor", "orient", "lat", "lon", "alt"]

    /// The members of a checked TPV object (``check(_:)`` said `.object`) whose keys GeoTrack does
    /// not know (among `known`: a GST's keys for a GST), as gpsd wrote them (`"velN":-1.1,"velE":-2.3`), or nil when there are none.
    /// Newer gpsd releases add keys (3.25's velN, velE and velD from a Garmin's PGRMV); they pass
    /// through to `watch --json` unread. Their values passed the strict check: valid JSON.
    static func unknownMembers(_ bytes: UnsafeBufferPointer<UInt8>, known: [StaticString] = knownTPVKeys) -> String? {
        guard let base = bytes.baseAddress else { return nil }
        var scanner = Scanner(base: base, count: bytes.count)
        scanner.skipWhitespace()
        guard scanner.consume(UInt8(ascii: "{")) else { return nil }
        var members: [UInt8] = []
        while true {
            scanner.skipWhitespace()
            let keyStart = scanner.index
            guard scanner.peek == UInt8(ascii: "\""), scanner.string() else { return nil }
            let keyEnd = scanner.index
            let key = UnsafeBufferPointer(start: base + keyStart + 1, count: keyEnd - keyStart - 2)
            scanner.skipWhitespace()
            guard scanner.consume(UInt8(ascii: ":")) else { return nil }
            scanner.skipWhitespace()
            let valueStart = scanner.index
            guard scanner.value(depth: 0, place: .nested) else { return nil }
            if !known.contains(where: { Scanner.equals(key, $0) }) {
                if !members.isEmpty { members.append(UInt8(ascii: ",")) }
                members.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[keyStart..<keyEnd]))
                members.append(UInt8(ascii: ":"))
                members.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[valueStart..<scanner.index]))
            }
            scanner.skipWhitespace()
            if scanner.consume(UInt8(ascii: "}")) { break }
            guard scanner.consume(UInt8(ascii: ",")) else { return nil }
        }
        return members.isEmpty ? nil : String(decoding: members, as: UTF8.self)
    }

    /// Where a value sits, for the one place a nested `"class"` belongs.
    private enum Place {
        /// The message itself.
        case top
        /// The value of the message's `devices` key.
        case devicesList
        /// An entry of that list: a DEVICE object.
        case deviceEntry
        /// Anywhere else.
        case nested
    }

    private struct Scanner {
        let base: UnsafePointer<UInt8>
        let count: Int
        var index = 0

        init(base: UnsafePointer<UInt8>, count: Int) {
            self.base = base
            self.count = count
        }

        /// The message does not start with its class, or a nested object outside a DEVICES
        /// message's `devices` list has a `"class"` key.
        var unexpectedShape = false
        /// The message's class is DEVICES.
        var isDevices = false

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

        mutating func value(depth: Int, place: Place) -> Bool {
            switch peek {
            case UInt8(ascii: "{"): return depth < JSONSyntax.maximumDepth && object(depth: depth + 1, place: place)
            case UInt8(ascii: "["): return depth < JSONSyntax.maximumDepth && array(depth: depth + 1, place: place)
            case UInt8(ascii: "\""): return string()
            case UInt8(ascii: "t"): return literal("true")
            case UInt8(ascii: "f"): return literal("false")
            case UInt8(ascii: "n"): return literal("null")
            default: return number()
            }
        }

        mutating func object(depth: Int, place: Place) -> Bool {
            index += 1 // {
            skipWhitespace()
            if consume(UInt8(ascii: "}")) {
                if place == .top { unexpectedShape = true }
                return true
            }
            var isFirst = true
            while true {
                skipWhitespace()
                let keyStart = index + 1
                guard peek == UInt8(ascii: "\""), string() else { return false }
                let key = UnsafeBufferPointer(start: base + keyStart, count: index - 1 - keyStart)
                let isClass = Self.equals(key, "class")
                if place == .top, isFirst != isClass { unexpectedShape = true }
                if place == .nested || place == .devicesList, isClass { unexpectedShape = true }
                let inner: Place = place == .top && isDevices && Self.equals(key, "devices") ? .devicesList : .nested
                skipWhitespace()
                guard consume(UInt8(ascii: ":")) else { return false }
                skipWhitespace()
                let valueStart = index + 1
                guard value(depth: depth, place: inner) else { return false }
                if place == .deviceEntry,
                   !Self.isDeviceValue(key: key, value: UnsafeBufferPointer(start: base + valueStart - 1,
                                                                            count: index - (valueStart - 1))) {
                    unexpectedShape = true
                }
                if place == .top, isFirst, isClass {
                    // The class names the message: a string, and DEVICES lets its list hold DEVICEs.
                    if base[valueStart - 1] != UInt8(ascii: "\"") { unexpectedShape = true }
                    isDevices = Self.equals(UnsafeBufferPointer(start: base + valueStart, count: max(0, index - 1 - valueStart)),
                                            "DEVICES")
                }
                isFirst = false
                skipWhitespace()
                if consume(UInt8(ascii: "}")) { return true }
                guard consume(UInt8(ascii: ",")) else { return false }
            }
        }

        mutating func array(depth: Int, place: Place) -> Bool {
            index += 1 // [
            skipWhitespace()
            if consume(UInt8(ascii: "]")) { return true }
            let entries: Place = place == .devicesList ? .deviceEntry : .nested
            var count = 0
            while true {
                skipWhitespace()
                guard value(depth: depth, place: entries) else { return false }
                count += 1
                // libgps's device table holds so many; it fails to parse (and 3.22 loops on) more.
                if place == .devicesList, count > Int(geotrack_devices_capacity()) { unexpectedShape = true }
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
                        guard let unit = hexUnit() else { return false }
                        // A surrogate must come as a pair: alone it is no character at all.
                        if (0xDC00...0xDFFF).contains(unit) { return false }
                        if (0xD800...0xDBFF).contains(unit) {
                            guard consume(UInt8(ascii: "\\")), consume(UInt8(ascii: "u")),
                                  let low = hexUnit(), (0xDC00...0xDFFF).contains(low) else { return false }
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

        /// Whether a key's raw bytes are exactly `word` (gpsd's keys have no escapes).
        static func equals(_ key: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
            guard key.count == word.utf8CodeUnitCount else { return false }
            for offset in 0..<key.count where key[offset] != word.utf8Start[offset] { return false }
            return true
        }

        /// The longest key libgps's JSON parser reads, in bytes: its JSON_ATTR_MAX (31, in
        /// gpsd 3.22 to 3.27) less the terminator.
        static let longestLibgpsKey = 30
        /// The longest value it reads, in bytes: a string's between its quotes, or a number's
        /// (JSON_VAL_MAX, 512).
        static let longestLibgpsValue = 512

        /// Whether `value` (valid JSON) is what libgps reads for `key` in an entry of a DEVICES
        /// list without failing: the types of its device table (json_attrs_subdevices in gpsd's
        /// libgps_json.c, the same in 3.22 to 3.27), strings shorter than the field they fill
        /// (their raw bytes, which are never fewer than the bytes they decode to), and no key or
        /// value longer than its parser reads (any key, even one it does not know: the fuzzer
        /// found 3.22 looping on a 31-byte key).
        static func isDeviceValue(key: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) -> Bool {
            guard let first = value.first, key.count <= longestLibgpsKey else { return false }
            let isString = first == UInt8(ascii: "\"")
            let isNumber = first == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
            let stringLength = value.count - 2
            guard (isString ? stringLength : value.count) <= longestLibgpsValue else { return false }
            if equals(key, "class") {
                return isString && equals(UnsafeBufferPointer(rebasing: value.dropFirst().dropLast()), "DEVICE")
            }
            if let keyBase = key.baseAddress {
                let capacity = keyBase.withMemoryRebound(to: CChar.self, capacity: key.count) {
                    Int(geotrack_device_field_capacity($0, key.count))
                }
                if capacity > 0 { return isString && stringLength < capacity }
            }
            if equals(key, "parity") { return isString && stringLength <= 1 }
            if equals(key, "flags") || equals(key, "native") || equals(key, "bps") || equals(key, "stopbits")
                || equals(key, "cycle") || equals(key, "mincycle") {
                return isNumber
            }
            if equals(key, "activated") { return isString || isNumber }
            // Any other key: libgps skips it, if it is a plain value rather than an array or object.
            return first != UInt8(ascii: "[") && first != UInt8(ascii: "{")
        }

        /// Four hex digits, as the code unit they spell.
        mutating func hexUnit() -> UInt16? {
            var unit: UInt16 = 0
            for _ in 0..<4 {
                let byte = peek
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: return nil
                }
                unit = unit << 4 | UInt16(digit)
                index += 1
            }
            return unit
        }
    }
}
