import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// One time-position-velocity report: gpsd's TPV, or one NMEA reporting cycle.
///
/// Every measured value is optional. A value the receiver did not send, or
/// sent as NaN, is `nil`: never NaN and never a stand-in 0. Units follow gpsd:
/// metres, metres per second, degrees, seconds.
///
/// A fix is a *position* only when ``coordinate`` is non-nil, which requires a
/// mode of 2D or better, a valid time and a valid latitude and longitude.
public struct Fix: Sendable, Hashable {
    /// The receiver that produced the fix (gpsd `device`), when known.
    public var device: String?
    /// 2D, 3D, or no fix.
    public var mode: FixMode
    /// The kind of solution (gpsd `status`), when reported.
    public var status: FixStatus?
    /// The receiver's time of the fix (UTC), with sub-second precision.
    public var time: Date?
    /// Latitude in degrees (gpsd `lat`).
    public var latitude: Double?
    /// Longitude in degrees (gpsd `lon`).
    public var longitude: Double?
    /// Height above the WGS 84 ellipsoid in metres (gpsd `altHAE`).
    public var altitudeHAE: Double?
    /// Height above mean sea level in metres (gpsd `altMSL`).
    public var altitudeMSL: Double?
    /// Geoid separation: ellipsoid height minus MSL height, in metres (gpsd `geoidSep`).
    public var geoidSeparation: Double?
    /// Estimated horizontal position error in metres, 95% confidence (gpsd `eph`).
    public var eph: Double?
    /// Estimated spherical (3D) position error in metres, 95% confidence (gpsd `sep`).
    public var sep: Double?
    /// Estimated longitude error in metres, 95% confidence (gpsd `epx`).
    public var epx: Double?
    /// Estimated latitude error in metres, 95% confidence (gpsd `epy`).
    public var epy: Double?
    /// Estimated vertical error in metres, 95% confidence (gpsd `epv`).
    public var epv: Double?
    /// Estimated time error in seconds (gpsd `ept`).
    public var ept: Double?
    /// Speed over ground in metres per second (gpsd `speed`).
    public var speed: Double?
    /// Course over ground in degrees from true north (gpsd `track`).
    public var track: Double?
    /// Course over ground in degrees from magnetic north (gpsd `magtrack`).
    public var magneticTrack: Double?
    /// Magnetic variation in degrees, east positive (gpsd `magvar`).
    public var magneticVariation: Double?
    /// Climb (positive) or sink rate in metres per second (gpsd `climb`).
    public var climb: Double?
    /// Estimated speed error in metres per second, 95% confidence (gpsd `eps`).
    public var eps: Double?
    /// Estimated track error in degrees, 95% confidence (gpsd `epd`).
    public var epd: Double?
    /// Estimated climb error in metres per second, 95% confidence (gpsd `epc`).
    public var epc: Double?
    /// Depth of water below the sounder in metres (gpsd `depth`, from an echo sounder's DBT).
    ///
    /// Read from NMEA logs; from gpsd it reaches ``tpvJSON()`` through ``otherTPVMembers``.
    public var depth: Double?
    /// The wind, on a fix reported at a wind sentence (as gpsd prints it there only); else nil.
    public var wind: Wind?
    /// Age of the differential corrections in seconds (gpsd `dgpsAge`), known with ``dgpsStation``.
    public var dgpsAge: Double?
    /// The differential reference station's id (gpsd `dgpsSta`), known with ``dgpsAge``.
    public var dgpsStation: Int?
    /// Whether this fix is the first of a GPX track segment after another: the track's recorder
    /// stopped between the two (a pause, a lost signal), so nothing is known of the way from the
    /// last fix to this one. Set only by a GPX track's reader; no part of gpsd's TPV.
    public var beginsTrackSegment = false
    /// The members of gpsd's TPV that GeoTrack does not read (keys a newer gpsd added, such as
    /// `velN`), as gpsd wrote them: `"velN":-1.1,"velE":-2.3`. ``tpvJSON()`` writes them back,
    /// so `watch --json` prints every key gpsd printed. Nil when there were none.
    public var otherTPVMembers: String?

    /// Creates a fix; every measurement starts out unknown.
    public init(mode: FixMode = .unknown, time: Date? = nil, device: String? = nil) {
        self.mode = mode
        self.time = time
        self.device = device
    }

    /// The position, when this fix is one: mode 2D or 3D, a valid time, and a valid latitude and longitude.
    public var coordinate: Coordinate? {
        guard mode >= .twoD, time != nil, let latitude, let longitude else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// Whether this fix is a position (see ``coordinate``).
    public var hasPosition: Bool { coordinate != nil }
}
