import FoundationEssentials
import GPSReports
#if canImport(Glibc)
import Glibc
#endif

/// gpsd's working fix (`struct gps_fix_t`): NaN for unknown, so the cycle rules can be
/// followed exactly, then converted to a ``Fix`` with optionals when reported.
struct GPSDFix {
    /// Seconds since 1970; 0 when unknown (gpsd's `tv_sec == 0`).
    var time: Double = 0
    /// 0 not seen, 1 no fix, 2 2D, 3 3D.
    var mode = 0
    /// The status a sentence gives (gpsd's STATUS_*), read from ``NMEACycleAssembler/newData`` only.
    var status = 0
    var latitude = Double.nan
    var longitude = Double.nan
    var altHAE = Double.nan
    var altMSL = Double.nan
    var geoidSeparation = Double.nan
    var speed = Double.nan
    var track = Double.nan
    var magneticTrack = Double.nan
    var magneticVariation = Double.nan
    var climb = Double.nan
    var ept = Double.nan
    var epx = Double.nan
    var epy = Double.nan
    var epv = Double.nan
    var eph = Double.nan
    var sep = Double.nan
    var eps = Double.nan
    var epd = Double.nan
    var epc = Double.nan
    /// Metres of water below the sounder (DBT); NaN when unknown.
    var depth = Double.nan
    /// Wind (MWV, MWD): gpsd's wanglem, wangler, wanglet, wspeedr, wspeedt; NaN when unknown.
    var windAngleMagnetic = Double.nan
    var windAngleRelative = Double.nan
    var windAngleTrue = Double.nan
    var windSpeedRelative = Double.nan
    var windSpeedTrue = Double.nan
    /// Seconds since the last differential correction (GGA); NaN when unknown.
    var dgpsAge = Double.nan
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
