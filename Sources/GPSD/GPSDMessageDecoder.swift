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
        /// A valid message of a kind GeoTrack does not report (WATCH, GST, PPS, …).
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
            return .rejected(reason: "a line that is not a JSON object")
        case .unexpectedShape:
            return .rejected(reason: "a message not shaped as gpsd's are (its class first, no messages nested in it)")
        }
        // The line is NUL-terminated right after its last byte (``GPSDLineBuffer``).
        let kind = base.withMemoryRebound(to: CChar.self, capacity: line.count + 1) { geotrack_kind_of_message($0) }
        // A TPV's keys GeoTrack does not read pass through as gpsd sent them (read before libgps,
        // which may write into the line).
        let unknownMembers = kind == GEOTRACK_KIND_TPV ? JSONSyntax.unknownMembers(UnsafeBufferPointer(line)) : nil
        var raw = geotrack_report()
        _ = base.withMemoryRebound(to: CChar.self, capacity: line.count + 1) {
            geotrack_unpack(library.unpack, data, $0, &raw)
        }
        if raw.kind == GEOTRACK_KIND_ERROR {
            return .gpsdError(String(cString: geotrack_error_message(data)))
        }
        let outcome = Self.makeReport(from: raw, data: data)
        if let unknownMembers, case .report(.fix(var fix)) = outcome {
            fix.otherTPVMembers = unknownMembers
            return .report(.fix(fix))
        }
        return outcome
    }
}
