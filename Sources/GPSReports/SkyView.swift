import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// One satellite in a sky view.
public struct Satellite: Sendable, Hashable {
    /// The satellite's PRN as gpsd numbers it (NMEA-style, 1-255).
    public var prn: Int
    /// The GNSS constellation (u-blox numbering: 0 GPS, 1 SBAS, 2 Galileo, 3 BeiDou, 5 QZSS, 6 GLONASS), when known.
    public var gnssID: Int?
    /// The satellite's number within its constellation, when known.
    public var svID: Int?
    /// The signal tracked, u-blox numbering (gpsd's SKY `sigid`), when the receiver says and it
    /// is not the constellation's first (0: GPS L1C/A, Galileo E1, GLONASS L1 OF…).
    public var signalID: Int?
    /// Elevation in degrees above the horizon, when known.
    public var elevation: Double?
    /// Azimuth in degrees from true north, when known.
    public var azimuth: Double?
    /// Signal-to-noise ratio in dB-Hz, when tracked.
    public var signalStrength: Double?
    /// Whether the satellite is used in the current solution.
    public var used: Bool
    /// Whether the receiver flags the satellite usable, when it says so (NMEA never does).
    public var health: SatelliteHealth?

    /// Creates a satellite entry.
    public init(prn: Int, gnssID: Int? = nil, svID: Int? = nil, signalID: Int? = nil, elevation: Double? = nil,
                azimuth: Double? = nil, signalStrength: Double? = nil, used: Bool = false,
                health: SatelliteHealth? = nil) {
        self.prn = prn
        self.gnssID = gnssID
        self.svID = svID
        self.signalID = signalID
        self.elevation = elevation
        self.azimuth = azimuth
        self.signalStrength = signalStrength
        self.used = used
        self.health = health
    }

    /// Where a sky plot draws the satellite: its elevation (0° to 90°) and azimuth, or nil when
    /// it has no position to draw. That is when either is unknown, when it is below the horizon
    /// or past the zenith, and when both are exactly 0: gpsd's way of giving no position (its
    /// NMEA driver reads a GSV's empty fields as 0, and some receivers send 0 and 0 for a
    /// satellite they track without an almanac), which plotted would pile such satellites up
    /// on the horizon at north. The satellite tables list them all the same, as reported.
    public var skyPosition: (elevation: Double, azimuth: Double)? {
        guard let elevation, let azimuth, (0...90).contains(elevation), azimuth.isFinite,
              elevation != 0 || azimuth != 0 else { return nil }
        return (elevation, azimuth)
    }

    /// The satellite's system: from its `gnssID` when known, else from its PRN's range.
    public var constellation: Constellation? {
        gnssID.flatMap(Constellation.init(gnssID:)) ?? Constellation(prn: prn)
    }
}

/// The satellites a receiver sees and the dilutions of precision: gpsd's SKY report.
public struct SkyView: Sendable, Hashable {
    /// The receiver, when known.
    public var device: String?
    /// The time of the report, when known.
    public var time: Date?
    /// Every satellite listed, used or not.
    public var satellites: [Satellite]
    /// Longitude dilution of precision.
    public var xdop: Double?
    /// Latitude dilution of precision.
    public var ydop: Double?
    /// Vertical dilution of precision.
    public var vdop: Double?
    /// Time dilution of precision.
    public var tdop: Double?
    /// Horizontal dilution of precision.
    public var hdop: Double?
    /// Position (3D) dilution of precision.
    public var pdop: Double?
    /// Geometric dilution of precision.
    public var gdop: Double?
    /// Satellites used in the solution as the receiver counts them, when it says so without
    /// listing them (a GPX point's `<sat>`, like gpsd's count from GGA). With no satellites
    /// listed, the sky knows this count and nothing of those seen: see ``seen`` and ``used``.
    public var reportedUsedCount: Int?

    /// Creates a sky view.
    public init(device: String? = nil, time: Date? = nil, satellites: [Satellite] = []) {
        self.device = device
        self.time = time
        self.satellites = satellites
    }

    // The one rule every output (SKY JSON, the status line, the sky screen, a location's
    // satellite counts) takes its counts from. A sky with a list counts the list, as gpsd
    // counts its own, whatever count came with it. A sky without a list but with a reported
    // count of used satellites (a GPX track keeps no more) knows that count and not how many
    // were seen: `seen` is nil, never 0, and `used` is the count. A sky with neither is an
    // empty list, as gpsd 3.22 sends it (`"nSat":0,"uSat":0`) before the receiver lists any.

    /// Whether the sky lists its satellites: `false` only when it carries just a
    /// ``reportedUsedCount``.
    public var listsSatellites: Bool { !satellites.isEmpty || reportedUsedCount == nil }

    /// How many satellites are listed with a PRN: gpsd's `nSat`, which leaves out those its
    /// decoders could not number (PRN 0); `nil` when the sky lists none and knows only how many
    /// were used (``listsSatellites``).
    public var seen: Int? { listsSatellites ? numbered : nil }

    /// How many satellites are used in the solution: the numbered ones flagged used, gpsd's
    /// `uSat`, or the ``reportedUsedCount`` of a sky that lists none.
    public var used: Int {
        guard listsSatellites else { return reportedUsedCount ?? 0 }
        return satellites.lazy.filter { $0.prn != 0 && $0.used }.count
    }

    /// How many satellites are listed with a PRN.
    private var numbered: Int { satellites.lazy.filter { $0.prn != 0 }.count }

    /// The satellites as gpsd 3.22's SKY report lists them: those with a PRN, among only the first
    /// `nSat` (``seen``) entries. When a PRN 0 comes before the last numbered satellite, gpsd lists
    /// fewer than `nSat` says; every view (SKY JSON, the sky screen, the page) shows this list.
    public var listed: [Satellite] {
        satellites.prefix(numbered).filter { $0.prn != 0 }
    }
}
