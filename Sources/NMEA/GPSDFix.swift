import FoundationEssentials
import GPSReports
#if canImport(Glibc)
import Glibc
#endif

/// gpsd's working fix (`struct gps_fix_t`): NaN for unknown, so the cycle rules can be
/// followed exactly, then converted to a ``Fix`` with optionals when reported.
///
/// Equal when every value prints the same (``BitExact``).
struct GPSDFix: Equatable {
    /// Seconds since 1970; 0 when unknown (gpsd's `tv_sec == 0`).
    @BitExact var time: Double = 0
    /// The time's fraction of a second in nanoseconds, as gpsd keeps it (`tv_nsec`): time
    /// differences are taken as gpsd takes them (``NMEACycleAssembler/secondsBetween(_:_:_:_:)``).
    var nanoseconds = 0
    /// 0 not seen, 1 no fix, 2 2D, 3 3D.
    var mode = 0
    /// The status a sentence gives (gpsd's STATUS_*), read from ``NMEACycleAssembler/newData`` only.
    var status = 0
    @BitExact var latitude = Double.nan
    @BitExact var longitude = Double.nan
    @BitExact var altHAE = Double.nan
    @BitExact var altMSL = Double.nan
    @BitExact var geoidSeparation = Double.nan
    @BitExact var speed = Double.nan
    @BitExact var track = Double.nan
    @BitExact var magneticTrack = Double.nan
    @BitExact var magneticVariation = Double.nan
    @BitExact var climb = Double.nan
    @BitExact var ept = Double.nan
    @BitExact var epx = Double.nan
    @BitExact var epy = Double.nan
    @BitExact var epv = Double.nan
    @BitExact var eph = Double.nan
    @BitExact var sep = Double.nan
    @BitExact var eps = Double.nan
    @BitExact var epd = Double.nan
    @BitExact var epc = Double.nan
    /// Metres of water below the sounder (DBT); NaN when unknown.
    @BitExact var depth = Double.nan
    /// Wind (MWV, MWD): gpsd's wanglem, wangler, wanglet, wspeedr, wspeedt; NaN when unknown.
    @BitExact var windAngleMagnetic = Double.nan
    @BitExact var windAngleRelative = Double.nan
    @BitExact var windAngleTrue = Double.nan
    @BitExact var windSpeedRelative = Double.nan
    @BitExact var windSpeedTrue = Double.nan
    /// Seconds since the last differential correction (GGA); NaN when unknown.
    @BitExact var dgpsAge = Double.nan
    /// The differential reference station (GGA); -1 when unknown, as gpsd keeps it.
    var dgpsStation = -1

    /// The report gpsd's TPV would carry (``tpvValues(status:wind:)``, the one place its rules
    /// are kept), as a ``Fix``.
    func report(status: Int, device: String?, wind: Bool = false) -> Fix {
        Fix(tpvValues: tpvValues(status: status, wind: wind), device: device)
    }

    /// The numbers gpsd's TPV would carry, NaN where it prints nothing: only time and mode below
    /// 2D, and the wind (in any mode) on a report made at a wind sentence (`wind`). The JSON bulk
    /// path prints them as they are; ``report(status:device:wind:)`` makes a ``Fix`` of them.
    func tpvValues(status: Int, wind: Bool = false) -> TPVValues {
        var v = TPVValues()
        v.mode = mode
        v.status = status
        if time > 0 {
            v.time = time
            v.ept = ept
        }
        if wind {
            v.hasWind = true
            v.windAngleMagnetic = windAngleMagnetic
            v.windAngleRelative = windAngleRelative
            v.windAngleTrue = windAngleTrue
            v.windSpeedRelative = windSpeedRelative
            v.windSpeedTrue = windSpeedTrue
        }
        guard mode >= 2 else { return v }
        if latitude.isFinite && longitude.isFinite {
            v.latitude = latitude
            v.longitude = longitude
        }
        v.altHAE = altHAE
        v.altMSL = altMSL
        v.epv = epv
        v.climb = climb
        if epx.isFinite && epy.isFinite {
            v.epx = epx
            v.epy = epy
        }
        v.track = track
        v.magneticTrack = magneticTrack
        v.magneticVariation = magneticVariation
        v.speed = speed
        v.geoidSeparation = geoidSeparation
        v.eph = eph
        v.sep = sep
        v.depth = depth
        v.epd = epd
        v.eps = eps
        if mode >= 3 {
            v.epc = epc
        } else {
            v.geoidSeparation = .nan
        }
        if dgpsAge.isFinite && dgpsStation >= 0 {
            v.dgpsAge = dgpsAge
            v.dgpsStation = dgpsStation
        }
        return v
    }
}
