/// The sentence types the decoder understands, by the three letters after the talker ID, and
/// the proprietary sentences gpsd's NMEA driver reads into a fix (Garmin's PGRME and PGRMZ,
/// SiRF's PSRFEPE).
///
/// The raw values double as gpsd's sentence tags in its end-of-cycle bit mask, so each is
/// small, distinct and non-zero.
enum NMEASentenceType: UInt8, CaseIterable {
    case rmc = 1, gga, gll, gsa, gsv, vtg, gns, zda, gst, hdt, hdg, ths, gbs
    /// An echo sounder's depth below the transducer. gpsd marks it as continuing a reporting
    /// cycle, which changes when fixes are reported from then on (see ``NMEACycleAssembler``).
    case dbt
    /// Wind speed and angle (relative), and wind direction and speed (true and magnetic).
    case mwv, mwd
    /// Garmin's estimated position errors, found by its whole tag (``lookup(_:_:_:)`` does not).
    case pgrme
    /// Garmin's altitude in feet and fix mode, found by its whole tag.
    case pgrmz

    /// SiRF's estimated errors, with a time, found by its whole tag.
    case psrfepe

    /// Whether the type is a proprietary sentence, named by its whole tag rather than three letters.
    var isProprietary: Bool { self == .pgrme || self == .pgrmz || self == .psrfepe }

    /// The type named by three upper-case letters, if known.
    @inline(__always)
    static func lookup(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> NMEASentenceType? {
        // One 24-bit key, which the compiler searches as a whole; the tuple of three bytes was
        // compared byte by byte, a call and about 24 instructions for each sentence.
        switch UInt32(a) << 16 | UInt32(b) << 8 | UInt32(c) {
        case 0x52_4D43: .rmc   // RMC
        case 0x47_4741: .gga   // GGA
        case 0x47_4C4C: .gll   // GLL
        case 0x47_5341: .gsa   // GSA
        case 0x47_5356: .gsv   // GSV
        case 0x56_5447: .vtg   // VTG
        case 0x47_4E53: .gns   // GNS
        case 0x5A_4441: .zda   // ZDA
        case 0x47_5354: .gst   // GST
        case 0x48_4454: .hdt   // HDT
        case 0x48_4447: .hdg   // HDG
        case 0x54_4853: .ths   // THS
        case 0x47_4253: .gbs   // GBS
        case 0x44_4254: .dbt   // DBT
        case 0x4D_5756: .mwv   // MWV
        case 0x4D_5744: .mwd   // MWD
        default: nil
        }
    }

    /// The fewest fields (tag included) gpsd decodes this sentence with.
    var minimumFields: Int {
        switch self {
        case .rmc: 8
        case .gga, .gns: 13
        case .gll, .gbs, .pgrme, .psrfepe, .dbt: 7
        case .gsa: 18
        case .gsv, .hdg, .ths, .mwv, .mwd: 0
        case .vtg: 5
        case .pgrmz: 4
        case .zda: 4
        case .gst: 8
        case .hdt: 1
        }
    }
}
