/// The format of a file to replay.
public enum ReplayFormat: Sendable, Hashable {
    /// NMEA 0183 sentences, as a receiver sends them or gpsd's logs keep them.
    case nmea
    /// A GPX 1.0 or 1.1 track.
    case gpx

    /// Guesses the format from the first bytes of a file: XML (a `<` first, after any
    /// byte-order mark and white space) is GPX, anything else NMEA.
    package static func detect<Bytes: Collection<UInt8>>(prefix: Bytes) -> ReplayFormat {
        decide(prefix, at: 0) ?? .nmea
    }

    /// The format `bytes` decide, when they start `offset` bytes into the file: `nil` while
    /// they hold only a byte-order mark and white space, so a caller reading the file in
    /// pieces can go on with the next one.
    package static func decide<Bytes: Collection<UInt8>>(_ bytes: Bytes, at offset: Int) -> ReplayFormat? {
        var index = offset
        for byte in bytes {
            defer { index += 1 }
            if index < 3, byte == 0xEF || byte == 0xBB || byte == 0xBF { continue }
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"): continue
            case UInt8(ascii: "<"): return .gpx
            default: return .nmea
            }
        }
        return nil
    }
}
