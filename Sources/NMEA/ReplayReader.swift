import GPSReports

/// Reads an NMEA log or a GPX track and returns its reports one by one: the synchronous fast path.
///
/// Pull-based and bounded: it reads 64 KiB at a time and decodes only as far as the next
/// report. The reports are the ones gpsd would have produced from the same input (see
/// ``ReplayFormat``). Not thread-safe; use one reader from one thread, or ``Replay`` for an
/// async, paced stream.
public final class ReplayReader {
    private let input: ByteInput
    private var nmea: NMEAStreamDecoder
    private let gpx: GPXStreamDecoder?
    private var pending: [Report] = []
    private var pendingIndex = 0
    private var finished = false

    /// The format being read, given or detected.
    public let format: ReplayFormat

    /// Opens `path` ("-" for stdin) and detects its format from its first bytes unless `format` is given.
    ///
    /// Throws ``SourceError`` with code `.unreadableFile` when the file is missing, unreadable or a directory.
    public init(path: String, format: ReplayFormat? = nil) throws(SourceError) {
        input = try ByteInput(path: path)
        _ = try input.refill()
        let detected = format ?? ReplayFormat.detect(prefix: input.available)
        self.format = detected
        let device = path == "-" ? "stdin" : path
        nmea = NMEAStreamDecoder(device: device)
        gpx = detected == .gpx ? GPXStreamDecoder(device: device) : nil
        pending.reserveCapacity(8)
    }

    /// Whether sky views (GSV/GSA) are reported; off saves work when only fixes are wanted.
    package var includesSkyViews: Bool {
        get { nmea.assembler.wantsSky }
        set { nmea.assembler.wantsSky = newValue }
    }

    /// Whether heading-sensor attitudes (HDT/HDG/THS) are reported.
    package var includesAttitudes: Bool {
        get { nmea.assembler.wantsAttitude }
        set { nmea.assembler.wantsAttitude = newValue }
    }

    /// What has been read and skipped so far.
    public var statistics: ReplayStatistics {
        gpx?.statistics ?? nmea.statistics
    }

    /// Reads the whole input and writes every fix as a gpsd TPV JSON line into `writer`, calling
    /// `flush` whenever it holds more than `flushThreshold` bytes and once at the end: the bulk
    /// path of `geotrack replay --json`, which builds no ``Report`` values. Returns the number of fixes.
    package func writeTPVJSONLines(to writer: inout JSONWriter, flushThreshold: Int,
                                   flush: (inout JSONWriter) -> Bool) throws(SourceError) -> Int {
        var fixes = 0
        if gpx != nil {
            while let report = try next() {
                guard case .fix(let fix) = report else { continue }
                fixes += 1
                fix.appendTPVJSON(to: &writer)
                writer.byte(0x0A)
                if writer.count >= flushThreshold, !flush(&writer) { return fixes }
            }
            _ = flush(&writer)
            return fixes
        }
        nmea.assembler.collectsRawFixes = true
        nmea.assembler.wantsSky = false
        nmea.assembler.wantsAttitude = false
        defer { nmea.assembler.collectsRawFixes = false }
        while true {
            let available = input.available
            let used = nmea.consume(available, atEnd: input.atEnd, into: &pending)
            input.consume(used)
            pending.removeAll(keepingCapacity: true)
            let device = nmea.assembler.device
            for values in nmea.assembler.rawFixes {
                writer.tpv(values, device: device)
                writer.byte(0x0A)
            }
            fixes += nmea.assembler.rawFixes.count
            nmea.assembler.rawFixes.removeAll(keepingCapacity: true)
            if writer.count >= flushThreshold, !flush(&writer) { return fixes }
            if input.atEnd { break }
            _ = try input.refill()
        }
        finished = true
        _ = flush(&writer)
        return fixes
    }

    /// The next report, or `nil` at the end of the input.
    ///
    /// Throws ``SourceError`` with code `.io` when reading fails midway.
    public func next() throws(SourceError) -> Report? {
        while true {
            if pendingIndex < pending.count {
                let report = pending[pendingIndex]
                pendingIndex += 1
                return report
            }
            if pendingIndex > 0 {
                pending.removeAll(keepingCapacity: true)
                pendingIndex = 0
            }
            if finished { return nil }
            let available = input.available
            let used = if let gpx {
                gpx.consume(available, atEnd: input.atEnd, into: &pending)
            } else {
                nmea.consume(available, atEnd: input.atEnd, into: &pending)
            }
            input.consume(used)
            if !pending.isEmpty { continue }
            if input.atEnd {
                finished = true
                continue
            }
            _ = try input.refill()
        }
    }
}
