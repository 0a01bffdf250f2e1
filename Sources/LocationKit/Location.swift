import FoundationEssentials
import GPSReports
#if canImport(Glibc)
import Glibc
#endif

/// A position report, like CoreLocation's `CLLocation`: immutable once made.
///
/// Values the receiver did not report are `nil` — never NaN, never a stand-in 0,
/// never a negative accuracy. Accuracies are gpsd's 95%-confidence estimates, in metres
/// (degrees for ``courseAccuracy``, metres per second for ``speedAccuracy``).
public struct Location: Sendable, Hashable, CustomStringConvertible {
    /// Latitude and longitude (WGS 84).
    public private(set) var coordinate: Coordinate
    /// Height above mean sea level in metres.
    public private(set) var altitude: Double?
    /// Height above the WGS 84 ellipsoid in metres.
    public private(set) var ellipsoidalAltitude: Double?
    /// Horizontal position error in metres (95%).
    public private(set) var horizontalAccuracy: Double?
    /// Vertical position error in metres (95%).
    public private(set) var verticalAccuracy: Double?
    /// Speed over ground in metres per second.
    public private(set) var speed: Double?
    /// Speed error in metres per second (95%).
    public private(set) var speedAccuracy: Double?
    /// Course over ground in degrees from true north, 0 to 360. This is the direction of travel, not a heading.
    public private(set) var course: Double?
    /// Course error in degrees (95%).
    public private(set) var courseAccuracy: Double?
    /// The receiver's time of the fix (UTC).
    public private(set) var timestamp: Date
    /// Fix mode, satellites, dilutions and device.
    public private(set) var gnss: GNSSDetail
    /// Whether the source went quiet or was lost after this fix (a silence, gpsd gone): it
    /// describes the past, not where the receiver is now.
    public internal(set) var isStale: Bool
    /// Whether this location was played back (`SourceInformation.isSimulatedBySoftware`) or
    /// came from a receiver through gpsd (`SourceInformation.isProducedByAccessory`).
    public private(set) var sourceInformation = SourceInformation()
    /// The report this location was made from, exactly as the source sent it (gpsd's TPV, or the
    /// NMEA cycle decoded as gpsd would): every field, including those a location has no
    /// property for (climb, magnetic track, the error estimates). Outputs that speak gpsd's
    /// format print this, so nothing is lost between the receiver and them. Only a location made
    /// for display (``withHeight(of:)``) has its missing vertical values filled in here too.
    public private(set) var fix: Fix

    /// Creates a location by hand; non-finite and out-of-range values become `nil`, and ``fix``
    /// is a report holding the same values.
    public init(coordinate: Coordinate, altitude: Double? = nil, ellipsoidalAltitude: Double? = nil,
                horizontalAccuracy: Double? = nil, verticalAccuracy: Double? = nil,
                speed: Double? = nil, speedAccuracy: Double? = nil,
                course: Double? = nil, courseAccuracy: Double? = nil,
                timestamp: Date, gnss: GNSSDetail = GNSSDetail(), isStale: Bool = false) {
        self.coordinate = coordinate
        self.altitude = MeasuredValue.finite(altitude)
        self.ellipsoidalAltitude = MeasuredValue.finite(ellipsoidalAltitude)
        self.horizontalAccuracy = MeasuredValue.nonNegative(horizontalAccuracy)
        self.verticalAccuracy = MeasuredValue.nonNegative(verticalAccuracy)
        self.speed = MeasuredValue.nonNegative(speed)
        self.speedAccuracy = MeasuredValue.nonNegative(speedAccuracy)
        self.course = MeasuredValue.angle(course)
        self.courseAccuracy = MeasuredValue.nonNegative(courseAccuracy)
        self.timestamp = timestamp
        self.gnss = gnss
        self.isStale = isStale
        var fix = Fix(mode: gnss.fixMode, time: timestamp, device: gnss.device)
        fix.status = gnss.status
        fix.latitude = coordinate.latitude
        fix.longitude = coordinate.longitude
        fix.altitudeMSL = self.altitude
        fix.altitudeHAE = self.ellipsoidalAltitude
        fix.eph = self.horizontalAccuracy
        fix.epv = self.verticalAccuracy
        fix.speed = self.speed
        fix.eps = self.speedAccuracy
        fix.track = self.course
        fix.epd = self.courseAccuracy
        self.fix = fix
    }

    /// The location a received report describes; `fix` is kept as it came.
    init(coordinate: Coordinate, fix: Fix, timestamp: Date, sourceInformation: SourceInformation, gnss: GNSSDetail) {
        self.coordinate = coordinate
        self.sourceInformation = sourceInformation
        self.altitude = fix.mode == .threeD ? MeasuredValue.finite(fix.altitudeMSL) : nil
        self.ellipsoidalAltitude = fix.mode == .threeD ? MeasuredValue.finite(fix.altitudeHAE) : nil
        self.horizontalAccuracy = MeasuredValue.nonNegative(fix.eph ?? Self.combined(fix.epx, fix.epy))
        self.verticalAccuracy = fix.mode == .threeD ? MeasuredValue.nonNegative(fix.epv) : nil
        self.speed = MeasuredValue.nonNegative(fix.speed)
        self.speedAccuracy = MeasuredValue.nonNegative(fix.eps)
        self.course = MeasuredValue.angle(fix.track)
        self.courseAccuracy = MeasuredValue.nonNegative(fix.epd)
        self.timestamp = timestamp
        self.gnss = gnss
        self.isStale = false
        self.fix = fix
    }

    /// The speed the receiver measured: one that comes with its course. gpsd fills a report
    /// that lacks a speed (a GGA between RMCs) with one derived from the last two positions,
    /// without a course; that one is the positions' error over the interval as much as movement.
    public var reportedSpeed: Double? {
        course == nil ? nil : speed
    }

    /// This location with the velocity it lacks taken from `earlier`, when both describe the same
    /// fix time: a receiver that sends two reports per cycle, one with the velocity and one
    /// without, still describes one moment. Without a course of its own, this location's speed
    /// (if any) is gpsd's derived one, and the cycle's measured speed and course replace it
    /// (``reportedSpeed``); with a course but no speed, the speed is taken. A location of another
    /// time, or one that has both, is returned as it is. ``fix`` stays the report as it came.
    public func completed(from earlier: Location) -> Location {
        guard earlier.timestamp == timestamp else { return self }
        if course == nil, earlier.course != nil { return withVelocity(of: earlier) }
        guard speed == nil, let speed = earlier.speed else { return self }
        var completed = self
        completed.speed = speed
        completed.speedAccuracy = earlier.speedAccuracy
        return completed
    }

    /// This location with the speed, course and their accuracies of `other`, and everything
    /// else its own. ``fix`` stays the report as it came.
    public func withVelocity(of other: Location) -> Location {
        var carried = self
        carried.speed = other.speed
        carried.speedAccuracy = other.speedAccuracy
        carried.course = other.course
        carried.courseAccuracy = other.courseAccuracy
        return carried
    }

    /// Whether this location has a height (above sea level or the ellipsoid).
    public var hasHeight: Bool { altitude != nil || ellipsoidalAltitude != nil }

    /// This location with the heights of `other`, and the vertical error, climb and climb error
    /// it lacks taken from `other` too, for display: a receiver whose cycle holds a report without
    /// a height (garmin48's GLL, one second after its GGA) still has the height it gave a moment
    /// before. Unlike ``withVelocity(of:)`` this also fills ``fix`` (climb has no property of its
    /// own), so only views get such a location, never an output in gpsd's format.
    public func withHeight(of other: Location) -> Location {
        var carried = self
        carried.altitude = other.altitude
        carried.ellipsoidalAltitude = other.ellipsoidalAltitude
        carried.verticalAccuracy = verticalAccuracy ?? other.verticalAccuracy
        carried.fix.altitudeMSL = other.fix.altitudeMSL
        carried.fix.altitudeHAE = other.fix.altitudeHAE
        carried.fix.epv = fix.epv ?? other.fix.epv
        if fix.climb == nil {
            carried.fix.climb = other.fix.climb
            carried.fix.epc = other.fix.epc
        }
        return carried
    }

    /// A horizontal error from the latitude and longitude errors, when gpsd gives no `eph`.
    private static func combined(_ epx: Double?, _ epy: Double?) -> Double? {
        guard let x = MeasuredValue.nonNegative(epx), let y = MeasuredValue.nonNegative(epy) else { return nil }
        return (x * x + y * y).squareRoot()
    }

    /// The great-circle distance to `other` in metres.
    public func distance(from other: Location) -> Double {
        coordinate.distance(to: other.coordinate)
    }

    /// The coordinate, the accuracy in whole metres, the fix mode, and `(stale)` when stale.
    public var description: String {
        var text = "\(coordinate)"
        if let horizontalAccuracy { text += " ±\(Int(horizontalAccuracy.rounded()))m" }
        text += " \(gnss.fixMode)"
        if isStale { text += " (stale)" }
        return text
    }
}
