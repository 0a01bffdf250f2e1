/// The sentence types the decoder understands, by the three letters after the talker ID.
///
/// The raw values double as gpsd's sentence tags in its end-of-cycle bit mask, so each is
/// small, distinct and non-zero.
enum NMEASentenceType: UInt8, CaseIterable {
    case rmc = 1, gga, gll, gsa, gsv, vtg, gns, zda, gst, hdt, hdg, ths, gbs

    /// The type named by three upper-case letters, if known.
    @inline(__always)
    static func lookup(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> NMEASentenceType? {
        switch (a, b, c) {
        case (0x52, 0x4D, 0x43): .rmc   // RMC
        case (0x47, 0x47, 0x41): .gga   // GGA
        case (0x47, 0x4C, 0x4C): .gll   // GLL
        case (0x47, 0x53, 0x41): .gsa   // GSA
        case (0x47, 0x53, 0x56): .gsv   // GSV
        case (0x56, 0x54, 0x47): .vtg   // VTG
        case (0x47, 0x4E, 0x53): .gns   // GNS
        case (0x5A, 0x44, 0x41): .zda   // ZDA
        case (0x47, 0x53, 0x54): .gst   // GST
        case (0x48, 0x44, 0x54): .hdt   // HDT
        case (0x48, 0x44, 0x47): .hdg   // HDG
        case (0x54, 0x48, 0x53): .ths   // THS
        case (0x47, 0x42, 0x53): .gbs   // GBS
        default: nil
        }
    }

    /// The fewest fields (tag included) gpsd decodes this sentence with.
    var minimumFields: Int {
        switch self {
        case .rmc: 8
        case .gga, .gns: 13
        case .gll, .gbs: 7
        case .gsa: 18
        case .gsv, .hdg, .ths: 0
        case .vtg: 5
        case .zda: 4
        case .gst: 8
        case .hdt: 1
        }
    }
}
