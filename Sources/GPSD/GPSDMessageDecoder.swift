import CGPS
import GPSReports

/// Turns one line from gpsd into at most one report, and believes nothing it cannot check.
///
/// A line must be strict JSON (``JSONSyntax``) before libgps parses it; what libgps parsed
/// must then make sense (a time on or after the GPS epoch, a latitude within ±90°, …).
/// A line that fails either check is rejected whole, with the reason; a single field that
/// cannot be true (a negative error estimate, an azimuth of 400°) is left out.
///
/// It owns libgps's `gps_data_t`, which libgps uses as scratch space while parsing.
struct GPSDMessageDecoder: ~Copyable {
    /// What one line turned out to be.
    enum Outcome {
        /// A report to deliver.
        case report(Report)
        /// A valid message of a kind GeoTrack does not report (WATCH, PPS, …).
        case ignored
        /// gpsd's own ERROR message, with its text.
        case gpsdError(String)
        /// A line that is not a message gpsd would send: not JSON, or values that cannot be.
        case rejected(reason: String)
    }

    private let data: OpaquePointer
    private let library: LibGPS

    /// Creates a decoder with a zeroed `gps_data_t`, parsing with `library`.
    init(library: LibGPS) throws(SourceError) {
        guard let data = geotrack_data_create() else {
            throw SourceError(.io, message: "cannot allocate libgps's parsing space: out of memory")
        }
        self.library = library
        self.data = data
    }

    deinit {
        geotrack_data_free(data)
    }

    /// Decodes one line; libgps may write into it.
    mutating func decode(_ line: UnsafeMutableBufferPointer<UInt8>) -> Outcome {
        guard let base = line.baseAddress else { return .rejected(reason: "an empty line") }
        switch JSONSyntax.check(UnsafeBufferPointer(line)) {
        case .object:
            break
        case .invalid:
            // gpsd 3.22 (Debian 12, Raspberry Pi OS) writes a heading sensor's ATT broken; read
            // as it is meant, a boat's compass would never reach a client of that gpsd.
            if var repaired = Self.gpsd322Attitude(UnsafeBufferPointer(line)) {
                let outcome = repaired.withUnsafeMutableBufferPointer { decode(UnsafeMutableBufferPointer(rebasing: $0.dropLast())) }
                guard case .report(.attitude(var attitude)) = outcome else { return outcome }
                // Its other members are zeros it never measured: only the heading is the sensor's.
                attitude.pitch = nil
                attitude.roll = nil
                attitude.yaw = nil
                return .report(.attitude(attitude))
            }
            return .rejected(reason: "a line that is not a JSON object")
        case .unexpectedShape:
            return .rejected(reason: "a message not shaped as gpsd's are (its class first, no messages nested in it)")
        }
        // The line is NUL-terminated right after its last byte (``GPSDLineBuffer``).
        let kind = base.withMemoryRebound(to: CChar.self, capacity: line.count + 1) { geotrack_kind_of_message($0) }
        // A TPV's or GST's keys GeoTrack does not read pass through as gpsd sent them (read
        // before libgps, which may write into the line).
        let unknownMembers: String? = switch kind {
        case GEOTRACK_KIND_TPV: JSONSyntax.unknownMembers(UnsafeBufferPointer(line))
        case GEOTRACK_KIND_GST: JSONSyntax.unknownMembers(UnsafeBufferPointer(line), known: JSONSyntax.knownGSTKeys)
        default: nil
        }
        var raw = geotrack_report()
        _ = base.withMemoryRebound(to: CChar.self, capacity: line.count + 1) {
            geotrack_unpack(library.unpack, data, $0, &raw)
        }
        if raw.kind == GEOTRACK_KIND_ERROR {
            return .gpsdError(String(cString: geotrack_error_message(data)))
        }
        let outcome = Self.makeReport(from: raw, data: data)
        switch outcome {
        case .report(.fix(var fix)) where unknownMembers != nil:
            fix.otherTPVMembers = unknownMembers
            return .report(.fix(fix))
        case .report(.noise(var noise)) where unknownMembers != nil:
            noise.otherMembers = unknownMembers
            return .report(.noise(noise))
        default:
            return outcome
        }
    }

    /// The JSON gpsd 3.22 meant by an ATT message it wrote broken, NUL-terminated, or nil when
    /// `line` is not one. 3.22 writes an NMEA heading sensor's (HDT, HDG) reading as
    /// `{"class":"ATT","device":"/dev/ttyUSB0",,"time":"1970-01-01T00:00:01.245Z""heading":90.000,…}`:
    /// a doubled comma, a missing one, and a time that is none (seconds since its start, as if
    /// since 1970). The time goes, and the commas are put right; nothing else is changed, and
    /// the result is checked as any line is.
    static func gpsd322Attitude(_ line: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        let bytes = Array(line)
        guard bytes.starts(with: Array(#"{"class":"ATT","device":""#.utf8)),
              let doubled = bytes.firstRange(of: Array(#"",,"time":""#.utf8)) else { return nil }
        // The time's closing quote, then the next member's opening one with no comma between.
        guard let valueEnd = bytes[doubled.upperBound...].firstIndex(of: UInt8(ascii: "\"")),
              valueEnd + 1 < bytes.count, bytes[valueEnd + 1] == UInt8(ascii: "\"") else { return nil }
        return Array(bytes[...doubled.lowerBound]) + [UInt8(ascii: ",")] + Array(bytes[(valueEnd + 1)...]) + [0]
    }
}
