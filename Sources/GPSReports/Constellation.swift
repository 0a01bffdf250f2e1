/// A satellite navigation system.
public enum Constellation: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The United States' GPS.
    case gps
    /// Satellite-based augmentation (WAAS, EGNOS, MSAS, GAGAN).
    case sbas
    /// The European Union's Galileo.
    case galileo
    /// China's BeiDou.
    case beidou
    /// Indoor messaging (IMES).
    case imes
    /// Japan's QZSS.
    case qzss
    /// Russia's GLONASS.
    case glonass
    /// India's NavIC (IRNSS).
    case navic

    /// The system of a u-blox `gnssId` (gpsd's SKY `gnssid`), or nil for a number with none.
    public init?(gnssID: Int) {
        switch gnssID {
        case 0: self = .gps
        case 1: self = .sbas
        case 2: self = .galileo
        case 3: self = .beidou
        case 4: self = .imes
        case 5: self = .qzss
        case 6: self = .glonass
        case 7: self = .navic
        default: return nil
        }
    }

    /// The system of a PRN as gpsd numbers satellites without a `gnssid` (NMEA 2.x–4.0 ranges),
    /// or nil for a number in no range.
    public init?(prn: Int) {
        switch prn {
        case 1...32: self = .gps
        case 33...64, 120...158: self = .sbas
        case 65...96: self = .glonass
        case 193...200: self = .qzss
        case 201...237, 401...437: self = .beidou
        case 301...336: self = .galileo
        default: return nil
        }
    }

    /// The system's usual name (`GPS`, `Galileo`, …).
    public var description: String {
        switch self {
        case .gps: "GPS"
        case .sbas: "SBAS"
        case .galileo: "Galileo"
        case .beidou: "BeiDou"
        case .imes: "IMES"
        case .qzss: "QZSS"
        case .glonass: "GLONASS"
        case .navic: "NavIC"
        }
    }
}
