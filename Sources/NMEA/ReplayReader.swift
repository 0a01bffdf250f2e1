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
    /// Throws `SourceError` with code `.unreadableFile` when the file is missing, unreadable or a directory.
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

    /// Reads the whole input and hands its fixes over as raw TPV numbers, one batch per chunk the
    /// input is read in, with the device name: the bulk path of `geotrack replay --json`, which
    /// builds no ``Report`` values. `body` may take the batch by swapping in another array (the
    /// reader empties whatever it is left with and fills it next), and returns `false` to stop
    /// early. Returns the number of fixes.
    package func forEachFixBatch(_ body: (inout [TPVValues], String?) -> Bool) throws(SourceError) -> Int {
        var fixes = 0
        if let gpx {
            var batch: [TPVValues] = []
            while let report = try next() {
                guard case .fix(let fix) = report else { continue }
                batch.append(fix.tpvValues)
                if batch.count >= 256 {
                    fixes += batch.count
                    guard body(&batch, gpx.device) else { return fixes }
                    batch.removeAll(keepingCapacity: true)
                }
            }
            fixes += batch.count
            if !batch.isEmpty { _ = body(&batch, gpx.device) }
            return fixes
        }
        nmea.collectFixesOnly()
        defer { nmea.assembler.collectsRawFixes = false }
        let device = nmea.assembler.device
        while true {
            let available = input.available
            let used = nmea.consume(available, atEnd: input.atEnd, into: &pending)
            input.consume(used)
            pending.removeAll(keepingCapacity: true)
            if !nmea.workspace.rawFixes.isEmpty {
                fixes += nmea.workspace.rawFixes.count
                nmea.statistics.reports += nmea.workspace.rawFixes.count
                guard body(&nmea.workspace.rawFixes, device) else { return fixes }
                nmea.workspace.rawFixes.removeAll(keepingCapacity: true)
            }
            if input.atEnd { break }
            _ = try input.refill()
        }
        finished = true
        return fixes
    }

    /// The next report, or `nil` at the end of the input.
    ///
    /// Throws `SourceError` with code `.io` when reading fails midway.
    public func next() throws(SourceError) -> Report? {
        while true {
            if let report = nextReady() { return report }
            if finished { return nil }
            _ = try input.refill()
        }
    }

    /// The next report the bytes read so far give, or nil when it would take another `read(2)`
    /// (or the input ended): what a batch may add without waiting on a pipe fed slowly.
    package func nextReady() -> Report? {
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
            if input.atEnd { finished = true }
            return nil
        }
    }
}
