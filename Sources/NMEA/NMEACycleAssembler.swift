import FoundationEssentials
import GPSReports
#if canImport(Glibc)
import Glibc
#endif

/// Merges the sentences of one reporting cycle into one fix, the way gpsd 3.22 does.
///
/// The rules follow gpsd's NMEA driver and core (learned from its behaviour, not copied):
/// - A sentence that carries a time of day different from the previous one starts a new cycle
///   and clears the working fix. The timestamped sentence seen just before such a change is
///   learned as the cycle's last sentence ("cycle ender"); when it comes again, the merged fix is
///   reported. ZDA is left out of this, as gpsd leaves it out.
/// - Mode comes from GSA, GGA and GNS, with RMC and GLL implying 2D (3D when four or more
///   satellites are in use or an altitude is known), and a 3D fix is not downgraded by
///   sentences that cannot tell 2D from 3D.
/// - The date comes from RMC (two-digit year, century 2000) or ZDA and is carried to the
///   time-only sentences (GGA, GLL, GNS); without any date they give no time. A log's
///   `# Date:` header supplies the date only to a log with no RMC or ZDA at all (gpsd would
///   take the computer's date there). Unlike gpsd, no 1024-week shift is applied.
/// - altHAE = altMSL + geoid separation, the separation from gpsd's geoid grid
///   (``GeoidModel``) when no sentence gives it, and the magnetic variation from its magnetic
///   grid (``MagneticModel``); speed in m/s from knots; eph = HDOP × 19 m, epv = VDOP × 23 m,
///   sep = PDOP × 19 m (gpsd's UERE constants, a quarter of those with DGPS), epx and epy
///   from the X and Y DOPs of the used satellites' geometry (``SatelliteGeometry``) times 15 m,
///   unless a sentence gives errors of its own (GBS, Garmin's PGRME, SiRF's PSRFEPE); ept
///   0.005 s; climb and the speed, track and climb errors from the previous fix.
/// - The status is the cycle's: cleared with the fix, raised (never lowered) by each sentence
///   that gives one. An RMC with no fix and no time or date makes gpsd forget the date and
///   report at once.
///
/// The assembler is a pure state machine: sentences in, reports out. Fields it reads are
/// validated first; a sentence with an impossible value changes nothing.
///
/// Its stored properties are its state, everything that decides what later sentences make,
/// and nothing else: two assemblers that are equal (`==`, derived) make the same reports of the
/// same sentences. Numbers are compared as they print (``BitExact``). What only saves work, and
/// the fixes collected, are kept beside it in a ``Workspace``, which every call that decodes
/// is given.
struct NMEACycleAssembler: Equatable {
    /// gpsd's per-sentence change mask, reduced to what the cycle rules use.
    struct Mask: OptionSet {
        let rawValue: UInt32
        static let time = Mask(rawValue: 1 << 0)
        static let latLon = Mask(rawValue: 1 << 1)
        static let altitude = Mask(rawValue: 1 << 2)
        static let speed = Mask(rawValue: 1 << 3)
        static let track = Mask(rawValue: 1 << 4)
        static let magneticTrack = Mask(rawValue: 1 << 5)
        static let status = Mask(rawValue: 1 << 6)
        static let mode = Mask(rawValue: 1 << 7)
        static let dop = Mask(rawValue: 1 << 8)
        static let used = Mask(rawValue: 1 << 9)
        static let satellite = Mask(rawValue: 1 << 10)
        static let attitude = Mask(rawValue: 1 << 11)
        static let gst = Mask(rawValue: 1 << 12)
        static let errors = Mask(rawValue: 1 << 13)
        static let clear = Mask(rawValue: 1 << 14)
        static let report = Mask(rawValue: 1 << 15)
        /// gpsd's NAVDATA_SET: wind, printed on the TPV reported at this sentence only.
        static let wind = Mask(rawValue: 1 << 16)
    }

    /// What became of one sentence.
    enum Outcome {
        /// Decoded into the working state.
        case decoded
        /// Known type, but fewer fields than gpsd requires: ignored.
        case tooShort
        /// A field held an impossible value: the sentence changed nothing.
        case invalid
    }

    /// gpsd's MAXCHANNELS: the most satellites kept in a sky view or a used list.
    static let maximumChannels = 140
    static let knotsToMetresPerSecond = 1.852 / 3.6
    /// gpsd's limit on speed and climb, in m/s: anything faster is taken as unknown.
    static let speedLimit = 9999.9

    /// The device name put in every report.
    var device: String?
    /// Whether to build sky views (the JSON fast path does not need them).
    var wantsSky = true
    /// Whether to build attitude reports.
    var wantsAttitude = true
    /// Whether to report GSTs' error statistics (``PseudorangeNoise``).
    var wantsNoise = true
    /// When set, fixes go to the workspace's ``Workspace/rawFixes`` as TPV numbers instead of
    /// ``Report``s (the JSON bulk path).
    var collectsRawFixes = false

    // The receiver's date and time of day, as gpsd keeps them (year 0 = no date yet).
    var year = 0
    var month = 1
    var day = 1
    var hour = 0
    var minute = 0
    var second = 0
    @BitExact var subseconds = 0.0
    /// The same fraction of a second in nanoseconds, as gpsd keeps it (`tv_nsec`).
    var nanoseconds = 0
    var century = 2000
    /// The date of the log's `# Date:` header, until a sentence that can give a date is seen:
    /// never read after that, so forgotten then (two states differ in it only while it counts).
    var headerDate: CivilDate?
    var sawDateSentence = false

    // End-of-cycle detection.
    @BitExact var thisFractionalTime = 0.0
    @BitExact var lastFractionalTime = 0.0
    var latchFractionalTime = false
    var lastTag: UInt8 = 0
    var cycleEnders: UInt64 = 0
    /// Set for good by the first DBT, as gpsd 3.22 sets its `cycle_continue`: from then on every
    /// sentence without a time is taken as the cycle's end and reported, so a log with an echo
    /// sounder gets a TPV for nearly every sentence, as gpsd prints them.
    var cycleContinues = false

    // GGA repeated-timestamp latch.
    var lastGGATalker: UInt8 = 0
    var lastGGATimestamp = FieldPrefix()
    var latchMode = false

    // Satellites used (GSA) and seen (GSV).
    var lastGSATalker: UInt8 = 0
    var lastGSVTalker: UInt8 = 0
    var seenGLGSA = false, seenBDGSA = false, seenGAGSA = false, seenGNGSA = false
    var seenGLGSV = false, seenBDGSV = false, seenGAGSV = false, seenQZSS = false, seenGPGSV = false
    var satellitesUsed = 0
    var usedPRNs = UsedSatellites()
    var gsvAwait = 0
    var gsvPart = 0
    /// Compared with ``Satellite``'s own `==`: its numbers are whole degrees and decibels made
    /// from integers, never NaN or -0, so equal numbers print the same.
    var sky: [Satellite] = []
    /// Satellites counted but not kept, when sky views are not wanted.
    var skyCount = 0
    var skyHasAzimuth = false
    @BitExact var pdop = Double.nan
    @BitExact var hdop = Double.nan
    @BitExact var vdop = Double.nan
    /// gpsd's longitude and latitude DOPs: no NMEA sentence carries them; gpsd computes them
    /// from the used satellites' positions in the sky.
    @BitExact var xdop = Double.nan
    @BitExact var ydop = Double.nan
    /// gpsd's time and geometric DOPs, from the same geometry: printed in SKY reports only.
    @BitExact var tdop = Double.nan
    @BitExact var gdop = Double.nan
    /// The used satellites' directions in the sky view being read, for the DOPs.
    var geometry = SatelliteGeometry()

    // The working fix and gpsd's two previous fixes. The status is the fix's (gpsd's
    // fix.status): cleared with it at a cycle's start, raised by the sentences that give one.
    var status = 0
    var fix = GPSDFix()
    var lastFix = PreviousFix()
    var oldFix = PreviousFix()
    var newData = GPSDFix()
    /// What the heading sentences gave, reported as an ``Attitude``.
    var attitude = HeadingState()
    /// Whether a heading sentence changed ``attitude`` since it was last cleared: clearing an
    /// unchanged one (at every cycle of a log without heading sentences) only cost time.
    var attitudeChanged = false
    /// Whether the last run of the error model had no errors of a sentence's own (GBS, PGRME,
    /// PSRFEPE) to keep: run again with nothing changed, it then gives the same fix.
    var errorModelRanPlain = true

    /// What an assembler keeps beside its state: memos of pure functions, whose contents change
    /// no result, and the fixes collected on the bulk path, which are output. Never compared.
    struct Workspace {
        /// The reduced latitudes of the last points a speed was derived between: each fix's is
        /// needed again when the next one measures from it.
        var distances = Vincenty.Memo()
        /// The geoid and magnetic models' answers for the last position.
        var models = ModelMemo()
        /// The DOPs of the last sky view's geometry.
        var dilutions = SatelliteGeometry.Memo()
        /// The day number of the first of the last month a time was resolved in: the same for
        /// every sentence of a log but at midnight on the last of a month.
        var monthStart = (year: Int.min, month: 0, days: 0)
        /// Fixes collected while ``NMEACycleAssembler/collectsRawFixes`` is set.
        var rawFixes: [TPVValues] = []
    }

    init(device: String?) {
        self.device = device
        sky.reserveCapacity(Self.maximumChannels)
    }

    /// Remembers the date of a log's `# Date: YYYY-MM-DD` header, for logs whose sentences carry none.
    ///
    /// It is used only while no date-carrying sentence (RMC, ZDA) has been seen: a receiver that
    /// sends RMC will supply the date itself, and until it does gpsd gives its time-only
    /// sentences no time, which the replay keeps.
    mutating func setDefaultDate(year: Int, month: Int, day: Int) {
        guard !sawDateSentence, (1900...2200).contains(year), (1...12).contains(month), (1...31).contains(day)
        else { return }
        headerDate = CivilDate(year: year, month: month, day: day)
    }

    /// Gives time-only sentences the header's date when the log has no date of its own.
    mutating func applyHeaderDateIfNeeded() {
        guard year == 0, !sawDateSentence, let headerDate else { return }
        year = headerDate.year
        month = headerDate.month
        day = headerDate.day
        century = year - year % 100
    }

    /// Notes that the log has a sentence that can carry a date (RMC, ZDA), valid or not.
    ///
    /// Such a log does not need its header's date, and gpsd gives no time until one of these
    /// sentences gives a date: a date the header lent to the sentences before it (the first
    /// cycle's GGA, or every cycle while RMC says "no fix") is taken back, with the time it gave
    /// the working fix and the previous fixes a speed would be derived from.
    mutating func noteDateSentence() {
        guard !sawDateSentence else { return }
        sawDateSentence = true
        headerDate = nil
        guard year != 0 else { return }
        year = 0
        month = 1
        day = 1
        century = 2000
        fix.time = 0
        fix.nanoseconds = 0
        fix.ept = .nan
        lastFix = PreviousFix()
        oldFix = PreviousFix()
    }

    /// Notes a valid sentence the decoder skips (unknown, proprietary, AIS): like gpsd, any
    /// other sentence ends a run of GSV or GSA sentences, and is followed by the error model.
    ///
    /// `reachesNMEADriver` is false for what gpsd hands to another driver (AIS): once a DBT has
    /// been seen, every other sentence gpsd's NMEA driver reads ends a cycle and is reported.
    mutating func noteOtherSentence(reachesNMEADriver: Bool = true, _ work: inout Workspace,
                                    into reports: inout [Report]) {
        lastGSVTalker = 0
        lastGSATalker = 0
        if cycleContinues && reachesNMEADriver {
            latchFractionalTime = false
            newData = GPSDFix()
            endUntaggedSentence(&work, into: &reports)
        } else {
            rerunErrorModelIfNeeded(&work)
        }
    }

    /// A sentence gpsd reads without a decoder of its own, or too short, or with values it
    /// refuses, once cycles continue: gpsd gives it tag 0, which its end-of-cycle detector then
    /// marks as the cycle's end, so the fix so far is reported.
    private mutating func endUntaggedSentence(_ work: inout Workspace, into reports: inout [Report]) {
        var mask: Mask = []
        endOfCycle(tag: 0, mask: &mask)
        errorModel(&work)
        appendFix(mask, &work, into: &reports)
    }

    /// The fix as a report (or raw TPV numbers on the bulk path) when `mask` says to report.
    @inline(__always)
    private mutating func appendFix(_ mask: Mask, _ work: inout Workspace, into reports: inout [Report]) {
        guard mask.contains(.report) else { return }
        let wind = mask.contains(.wind)
        if collectsRawFixes {
            work.rawFixes.append(fix.tpvValues(status: status, wind: wind))
        } else {
            reports.append(.fix(fix.report(status: status, device: device, wind: wind)))
        }
    }

    /// gpsd runs its error model after every sentence, even one that changed nothing. Run again
    /// with nothing new, the model gives the same fix but in one case: position errors a
    /// sentence gave (GBS, PGRME) are replaced by the DOP-based ones. Only then is it run.
    private mutating func rerunErrorModelIfNeeded(_ work: inout Workspace) {
        guard fix.mode >= 2 else { return }
        let horizontalUERE = status == 2 ? 3.75 : 15.0
        if (xdop.isFinite && fix.epx.bitPattern != (xdop * horizontalUERE).bitPattern)
            || (ydop.isFinite && fix.epy.bitPattern != (ydop * horizontalUERE).bitPattern) {
            newData = GPSDFix()
            errorModel(&work)
        }
    }

    /// Decodes one checksum-verified sentence and appends any reports it completes.
    mutating func process(_ type: NMEASentenceType, _ fields: NMEAFields, _ work: inout Workspace,
                          into reports: inout [Report]) -> Outcome {
        latchFractionalTime = false
        newData = GPSDFix()
        guard fields.count >= type.minimumFields else {
            if type != .gsv { lastGSVTalker = 0 }
            if type != .gsa { lastGSATalker = 0 }
            if cycleContinues {
                endUntaggedSentence(&work, into: &reports)
            } else {
                rerunErrorModelIfNeeded(&work)
            }
            return .tooShort
        }
        // What a GSA may change that the error model reads: the mode and the DOPs.
        var beforeGSA: (mode: Int, dops: (UInt64, UInt64, UInt64))?
        // What a GLL, GNS, VTG, ZDA or GST may change that the error model reads besides the
        // values it merges: GNS's HDOP, and the fix's time that a first date sentence takes back.
        var beforeRepeat: (hdop: UInt64, sawDate: Bool)?
        switch type {
        case .gll, .gns, .vtg, .zda, .gst: beforeRepeat = (hdop.bitPattern, sawDateSentence)
        default: break
        }
        let decoded: Mask?
        var noise: PseudorangeNoise?
        switch type {
        case .rmc: decoded = decodeRMC(fields)
        case .gga: decoded = decodeGGA(fields)
        case .gll: decoded = decodeGLL(fields)
        case .gns: decoded = decodeGNS(fields)
        case .gsa:
            beforeGSA = (fix.mode, (pdop.bitPattern, hdop.bitPattern, vdop.bitPattern))
            decoded = decodeGSA(fields)
        case .gsv:
            decoded = decodeGSV(fields)
            // At the end of a sky view, its DOPs: here rather than in decodeGSV, whose loop over
            // the satellites ran slower with the workspace passed to it.
            if decoded == .satellite { fillDilutions(&work.dilutions) }
        case .vtg: decoded = decodeVTG(fields)
        case .zda: decoded = decodeZDA(fields)
        case .gst:
            decoded = decodeGST(fields)
            if wantsNoise { noise = noiseReport(fields) }
        case .gbs: decoded = decodeGBS(fields)
        case .hdt: decoded = decodeHDT(fields)
        case .hdg: decoded = decodeHDG(fields)
        case .ths: decoded = decodeTHS(fields)
        case .pgrme: decoded = decodePGRME(fields)
        case .pgrmz: decoded = decodePGRMZ(fields)
        case .psrfepe: decoded = decodePSRFEPE(fields)
        case .dbt: decoded = decodeDBT(fields)
        case .mwv: decoded = decodeMWV(fields)
        case .mwd: decoded = decodeMWD(fields)
        }
        guard var mask = decoded else {
            latchFractionalTime = false
            newData = GPSDFix()
            if cycleContinues {
                endUntaggedSentence(&work, into: &reports)
            } else {
                rerunErrorModelIfNeeded(&work)
            }
            return .invalid
        }
        if type != .gsv { lastGSVTalker = 0 }
        if type != .gsa { lastGSATalker = 0 }
        // A GSV before the last of its set changes neither the fix nor what the error model
        // reads (it has no time, and the DOPs change at the set's end): merging would change
        // nothing, and the error model only what ``rerunErrorModelIfNeeded(_:)`` looks for. GSVs
        // are two in five sentences.
        if type == .gsv && mask.isEmpty && !cycleContinues {
            rerunErrorModelIfNeeded(&work)
            return .decoded
        }
        if mask.contains(.time) {
            newData.time = resolvedTime(&work.monthStart)
            newData.nanoseconds = newData.time > 0 ? nanoseconds : 0
        }
        endOfCycle(tag: type.rawValue, mask: &mask)
        // A sentence that repeats what the cycle's others gave (a GLL after an RMC, a VTG, a
        // ZDA) leaves the fix as the error model, run last on it, left it.
        var repeatsFix = false
        if let beforeRepeat, hdop.bitPattern == beforeRepeat.hdop, sawDateSentence == beforeRepeat.sawDate {
            repeatsFix = mergeKeepsFix(mask)
        }
        merge(mask)
        if repeatsFix && !cycleContinues && errorModelRanPlain {
            // Run again on the same fix and the same DOPs, the model would give the same fix.
            rerunErrorModelIfNeeded(&work)
        } else if let beforeGSA, !cycleContinues, errorModelRanPlain, fix.mode == beforeGSA.mode,
           pdop.bitPattern == beforeGSA.dops.0, hdop.bitPattern == beforeGSA.dops.1, vdop.bitPattern == beforeGSA.dops.2 {
            // A GSA that changed neither the mode nor a DOP changed nothing the error model
            // reads (it gives no time, position or errors of its own): the model, run last on
            // this same fix, would give it again. A receiver sends several a cycle, one for each
            // constellation, with the same DOPs.
            rerunErrorModelIfNeeded(&work)
        } else {
            errorModel(&work)
        }
        appendFix(mask, &work, into: &reports)
        // gpsd's order: the TPV, then the GST, then the SKY.
        if let noise { reports.append(.noise(noise)) }
        if mask.contains(.satellite) && wantsSky {
            reports.append(.sky(skyView()))
        }
        if mask.contains(.attitude) && wantsAttitude {
            var report = attitude.report
            report.device = device
            let time = newData.time > 0 ? newData.time : fix.time
            report.time = time > 0 ? Date(timeIntervalSince1970: time) : nil
            reports.append(.attitude(report))
        }
        return .decoded
    }

    /// gpsd's end-of-cycle detector, then its rule against downgrading a held 3D fix.
    private mutating func endOfCycle(tag: UInt8, mask: inout Mask) {
        let lastTagBit: UInt64 = lastTag > 0 ? 1 << UInt64(lastTag) : 0
        let thisTagBit: UInt64 = 1 << UInt64(tag)
        if latchFractionalTime {
            if !(abs(thisFractionalTime - lastFractionalTime) < 0.01) {
                mask.insert(.clear)
                if lastTag > 0 && cycleEnders & lastTagBit == 0 && !cycleContinues {
                    cycleEnders |= lastTagBit
                }
            }
        } else if cycleContinues {
            // gpsd: a sentence without a time extends the cycle, and becomes its end. Bit 0 (the
            // sentences gpsd has no decoder for, which never carry a time) is read only right
            // after being set, so it is left alone: what it holds changes nothing, and a chunk
            // of a log decoded from a seed (whose last tag is 0) would otherwise differ in it.
            if lastTag > 0 { cycleEnders &= ~lastTagBit }
            if tag > 0 { cycleEnders |= thisTagBit } else { mask.insert(.report) }
        }
        if (latchFractionalTime || cycleContinues) && cycleEnders & thisTagBit != 0 {
            mask.insert(.report)
        }
        if latchFractionalTime { lastTag = tag }

        if mask.contains(.mode) && fix.mode == 3 && newData.mode != 1
            && (lastFix.altHAE.isFinite || oldFix.altHAE.isFinite || lastFix.altMSL.isFinite || oldFix.altMSL.isFinite) {
            newData.mode = fix.mode
        }
    }

    /// gpsd's gps_merge_fix, after clearing the working fix at the start of a cycle.
    private mutating func merge(_ mask: Mask) {
        if mask.contains(.clear) {
            fix = GPSDFix()
            status = 0
            if attitudeChanged {
                attitude = HeadingState()
                attitudeChanged = false
            }
        }
        if mask.contains(.time) {
            fix.time = newData.time
            fix.nanoseconds = newData.nanoseconds
        }
        // Within a cycle the status only goes up: one sentence may know of corrections another does not.
        if mask.contains(.status) && status < newData.status { status = newData.status }
        if mask.contains(.latLon) {
            fix.latitude = newData.latitude
            fix.longitude = newData.longitude
        }
        if mask.contains(.mode) { fix.mode = newData.mode }
        if mask.contains(.altitude) {
            if newData.altHAE.isFinite { fix.altHAE = newData.altHAE }
            if newData.altMSL.isFinite { fix.altMSL = newData.altMSL }
            if newData.depth.isFinite { fix.depth = newData.depth }
        }
        if mask.contains(.wind) {
            if newData.windAngleMagnetic.isFinite { fix.windAngleMagnetic = newData.windAngleMagnetic }
            if newData.windAngleRelative.isFinite { fix.windAngleRelative = newData.windAngleRelative }
            if newData.windAngleTrue.isFinite { fix.windAngleTrue = newData.windAngleTrue }
            if newData.windSpeedRelative.isFinite { fix.windSpeedRelative = newData.windSpeedRelative }
            if newData.windSpeedTrue.isFinite { fix.windSpeedTrue = newData.windSpeedTrue }
        }
        if mask.contains(.track) { fix.track = newData.track }
        if mask.contains(.magneticTrack) {
            if newData.magneticTrack.isFinite { fix.magneticTrack = newData.magneticTrack }
            if newData.magneticVariation.isFinite { fix.magneticVariation = newData.magneticVariation }
        }
        if mask.contains(.speed) { fix.speed = newData.speed }
        if newData.epx.isFinite && newData.epy.isFinite {
            fix.epx = newData.epx
            fix.epy = newData.epy
        }
        if newData.epv.isFinite { fix.epv = newData.epv }
        if newData.sep.isFinite { fix.sep = newData.sep }
        if newData.eph.isFinite { fix.eph = newData.eph }
        if newData.eps.isFinite { fix.eps = newData.eps }
        if newData.epd.isFinite { fix.epd = newData.epd }
        if newData.geoidSeparation.isFinite { fix.geoidSeparation = newData.geoidSeparation }
        if newData.dgpsAge.isFinite && newData.dgpsStation >= 0 {
            fix.dgpsAge = newData.dgpsAge
            fix.dgpsStation = newData.dgpsStation
        }
    }

    /// Whether ``merge(_:)`` with `mask` would leave the fix and the status exactly as they are,
    /// and the sentence gave no errors of its own: every value it merges is already the fix's,
    /// bit for bit. Wind, and a new cycle, count as changes.
    ///
    /// It changes nothing, but is `mutating` all the same: called from ``process(_:_:_:into:)``,
    /// a non-mutating method had the whole assembler copied for it first.
    private mutating func mergeKeepsFix(_ mask: Mask) -> Bool {
        if mask.contains(.clear) || mask.contains(.wind) { return false }
        if mask.contains(.time) && newData.time.bitPattern != fix.time.bitPattern { return false }
        if mask.contains(.status) && status < newData.status { return false }
        if mask.contains(.latLon) && (newData.latitude.bitPattern != fix.latitude.bitPattern
                                      || newData.longitude.bitPattern != fix.longitude.bitPattern) { return false }
        if mask.contains(.mode) && newData.mode != fix.mode { return false }
        if mask.contains(.altitude) && !(Self.keeps(newData.altHAE, fix.altHAE) && Self.keeps(newData.altMSL, fix.altMSL)
                                         && Self.keeps(newData.depth, fix.depth)) { return false }
        if mask.contains(.track) && newData.track.bitPattern != fix.track.bitPattern { return false }
        if mask.contains(.magneticTrack) && !(Self.keeps(newData.magneticTrack, fix.magneticTrack)
                                              && Self.keeps(newData.magneticVariation, fix.magneticVariation)) { return false }
        if mask.contains(.speed) && newData.speed.bitPattern != fix.speed.bitPattern { return false }
        return !newData.epx.isFinite && !newData.epy.isFinite && !newData.epv.isFinite && !newData.sep.isFinite
            && !newData.eph.isFinite && !newData.eps.isFinite && !newData.epd.isFinite
            && Self.keeps(newData.geoidSeparation, fix.geoidSeparation)
            && !(newData.dgpsAge.isFinite && newData.dgpsStation >= 0)
    }

    /// Whether merging `new`, taken only when finite, leaves `old` as it is.
    @inline(__always)
    private static func keeps(_ new: Double, _ old: Double) -> Bool {
        !new.isFinite || new.bitPattern == old.bitPattern
    }

    /// gpsd's error model (`gpsd_error_model()`): derived altitudes, the geoid separation and
    /// magnetic variation from gpsd's 5° models where no sentence gave them, a speed from the
    /// last two positions when no sentence gave one, climb, magnetic track, the DOP × UERE
    /// error estimates, and the speed, track and climb errors from this fix and the previous one.
    private mutating func errorModel(_ work: inout Workspace) {
        errorModelRanPlain = !newData.epx.isFinite && !newData.epy.isFinite && !newData.eps.isFinite
        var deltaTime = -1.0
        if fix.time > 0 {
            deltaTime = Self.secondsBetween(fix.time, fix.nanoseconds, lastFix.time, lastFix.nanoseconds)
            if abs(deltaTime) > 0.0099 {
                oldFix = lastFix
            } else {
                deltaTime = Self.secondsBetween(fix.time, fix.nanoseconds, oldFix.time, oldFix.nanoseconds)
            }
        }
        if !fix.latitude.isFinite || !fix.longitude.isFinite || abs(fix.latitude) > 90 || abs(fix.longitude) > 180 {
            fix.latitude = .nan
            fix.longitude = .nan
        }
        if abs(fix.speed) > Self.speedLimit { fix.speed = .nan }
        if abs(fix.climb) > Self.speedLimit { fix.climb = .nan }
        // Some receivers send a variation of 0.0 for none: gpsd takes its model's then.
        if fix.latitude.isFinite && fix.longitude.isFinite
            && (!fix.geoidSeparation.isFinite || !fix.magneticVariation.isFinite || abs(fix.magneticVariation) <= 0.09) {
            let model = work.models.values(latitude: fix.latitude, longitude: fix.longitude)
            if !fix.geoidSeparation.isFinite { fix.geoidSeparation = model.separation }
            if !fix.magneticVariation.isFinite || abs(fix.magneticVariation) <= 0.09 {
                fix.magneticVariation = model.declination
            }
        }
        if fix.magneticVariation.isFinite {
            if !fix.magneticTrack.isFinite && fix.track.isFinite {
                fix.magneticTrack = fix.track + fix.magneticVariation
            } else if fix.magneticTrack.isFinite && !fix.track.isFinite {
                fix.track = fix.magneticTrack - fix.magneticVariation
            }
        }
        if fix.track.isFinite { fix.track = Self.normalizedDegrees(fix.track) }
        if fix.magneticTrack.isFinite { fix.magneticTrack = Self.normalizedDegrees(fix.magneticTrack) }
        if fix.geoidSeparation.isFinite {
            if fix.altHAE.isFinite && !fix.altMSL.isFinite {
                fix.altMSL = fix.altHAE - fix.geoidSeparation
            } else if !fix.altHAE.isFinite && fix.altMSL.isFinite {
                fix.altHAE = fix.altMSL + fix.geoidSeparation
            }
        }
        if deltaTime > 0 && fix.mode >= 2 && oldFix.mode >= 2 {
            if !fix.speed.isFinite {
                fix.speed = work.distances.distance(latitude1: fix.latitude, longitude1: fix.longitude,
                                               latitude2: oldFix.latitude, longitude2: oldFix.longitude) / deltaTime
                if abs(fix.speed) > Self.speedLimit { fix.speed = .nan }
            }
            if fix.mode >= 3 && oldFix.mode >= 3 && !fix.climb.isFinite && fix.altHAE.isFinite && oldFix.altHAE.isFinite {
                fix.climb = (fix.altHAE - oldFix.altHAE) / deltaTime
                if abs(fix.climb) > Self.speedLimit { fix.climb = .nan }
            }
        }
        if fix.time > 0 && !fix.ept.isFinite { fix.ept = 0.005 }
        if fix.mode >= 2 { estimateErrors(deltaTime: deltaTime, &work) }
        if fix.time > 0 { lastFix = PreviousFix(fix) }
    }

    /// gpsd's `TS_SUB_D`: the seconds from one time to another, the whole seconds and the
    /// nanoseconds apart each taken first, so that the rates made from it (climb, the speed and
    /// climb errors) are gpsd's to the last bit. The difference of the two times as doubles is
    /// off by up to a ten-millionth of a second, which at 5 Hz rounds a climb's third decimal
    /// the other way.
    static func secondsBetween(_ later: Double, _ laterNanoseconds: Int, _ earlier: Double, _ earlierNanoseconds: Int) -> Double {
        // A time is whole seconds plus its nanoseconds: taking those off leaves a double within
        // a millionth of a whole number, which rounds to it exactly.
        guard let laterSeconds = Int(exactly: (later - Double(laterNanoseconds) * 1e-9).rounded()),
              let earlierSeconds = Int(exactly: (earlier - Double(earlierNanoseconds) * 1e-9).rounded()) else {
            return later - earlier
        }
        return Double(laterSeconds &- earlierSeconds) + Double(laterNanoseconds &- earlierNanoseconds) * 1e-9
    }

    /// The error estimates of gpsd's error model, for a fix of 2D or better: position errors
    /// from the DOPs times gpsd's user equivalent range errors (smaller with DGPS), then speed,
    /// track and climb errors from this fix's and the previous fix's.
    private mutating func estimateErrors(deltaTime: Double, _ work: inout Workspace) {
        // gpsd's UERE constants, metres at 95%: horizontal, vertical and spherical.
        let dgps = status == 2
        let horizontalUERE = dgps ? 3.75 : 15.0
        let verticalUERE = dgps ? 5.75 : 23.0
        let sphericalUERE = dgps ? 4.75 : 19.0
        // A sentence's own errors (GBS) are kept; gpsd looks at the sentence, not the merged fix.
        if !newData.epx.isFinite && xdop.isFinite { fix.epx = xdop * horizontalUERE }
        if !newData.epy.isFinite && ydop.isFinite { fix.epy = ydop * horizontalUERE }
        if fix.mode >= 3 && !fix.epv.isFinite && vdop.isFinite { fix.epv = vdop * verticalUERE }
        if !fix.eph.isFinite && hdop.isFinite { fix.eph = hdop * sphericalUERE }
        if !fix.sep.isFinite && pdop.isFinite { fix.sep = pdop * sphericalUERE }
        guard deltaTime > 0 && oldFix.mode >= 2 else { return }
        if !newData.eps.isFinite && oldFix.epx.isFinite && oldFix.epy.isFinite {
            fix.eps = (Self.larger(oldFix.epx, oldFix.epy) + Self.larger(fix.epx, fix.epy)) / deltaTime
        }
        // The track error is half the angle the new position's error subtends seen from the
        // old position; none when the move is shorter than that error, or the error unknown
        // (then the distance, which gpsd computes anyway, is not needed).
        let opposite = Self.larger(fix.epx, fix.epy)
        if !fix.epd.isFinite && !opposite.isNaN
            && Self.mayBeFarther(than: opposite, oldFix.latitude, oldFix.longitude, fix.latitude, fix.longitude) {
            let adjacent = work.distances.distance(latitude1: oldFix.latitude, longitude1: oldFix.longitude,
                                              latitude2: fix.latitude, longitude2: fix.longitude)
            if adjacent.isFinite && adjacent > opposite {
                let hypotenuse = (adjacent * adjacent + opposite * opposite).squareRoot()
                fix.epd = 180 / Double.pi * 2 * asin(opposite / hypotenuse)
            }
        }
        if fix.epv.isFinite && oldFix.epv.isFinite {
            fix.epc = (oldFix.epv + fix.epv) / deltaTime
        }
    }

    /// Whether two points in degrees may be more than `metres` apart: `false` only when a path
    /// between them along a meridian and then a parallel is no longer, so the geodesic is not
    /// either. A receiver at rest moves less than its error, and this spares the geodesic then.
    private static func mayBeFarther(than metres: Double, _ latitude1: Double, _ longitude1: Double,
                                     _ latitude2: Double, _ longitude2: Double) -> Bool {
        // No meridian or parallel of WGS 84 curves with a radius above 6 400 km; the factor and
        // the millimetre leave room for the geodesic formula's own rounding.
        let degrees = abs(latitude2 - latitude1) + abs(longitude2 - longitude1)
        let pathLength = degrees * (Double.pi / 180) * 6_400_000 * 1.001 + 0.001
        return !(pathLength <= metres)
    }

    /// C's `x > y ? x : y`, as gpsd's EMAX: the second value whenever either is NaN.
    @inline(__always)
    private static func larger(_ x: Double, _ y: Double) -> Double { x > y ? x : y }

    private static func normalizedDegrees(_ value: Double) -> Double {
        var v = value
        if v < 0 { v += 360 } else if v >= 360 { v -= 360 }
        return v
    }

    /// Seconds since 1970 from the receiver's date and time of day (gpsd's utc_resolve).
    /// `monthStart` is the workspace's memo of the month's first day.
    mutating func resolvedTime(_ monthStart: inout (year: Int, month: Int, days: Int)) -> Double {
        // A forgotten date (``forgetDate()``) is no time at all.
        if year == 0 && day == 0 { return 0 }
        if monthStart.year != year || monthStart.month != month {
            monthStart = (year, month, CivilDate(year: year, month: month, day: 1).daysSince1970)
        }
        return Self.seconds(days: monthStart.days + day - 1, hour: hour, minute: minute, second: second, subseconds: subseconds)
    }

    /// Seconds since 1970 at a time of day on the day `days` after 1970-01-01.
    @inline(__always)
    static func seconds(days: Int, hour: Int, minute: Int, second: Int, subseconds: Double) -> Double {
        Double(days * 86_400 + hour * 3600 + minute * 60 + second) + subseconds
    }

    /// The sky view as gpsd 3.22 reports it: without a time (its NMEA driver zeroes the sky
    /// view's time at the end of every GSV set, and prints none then), with every DOP known.
    private func skyView() -> SkyView {
        var view = SkyView(device: device, satellites: sky)
        view.xdop = xdop.isFinite ? xdop : nil
        view.ydop = ydop.isFinite ? ydop : nil
        view.tdop = tdop.isFinite ? tdop : nil
        view.gdop = gdop.isFinite ? gdop : nil
        view.hdop = hdop.isFinite ? hdop : nil
        view.vdop = vdop.isFinite ? vdop : nil
        view.pdop = pdop.isFinite ? pdop : nil
        return view
    }
}
