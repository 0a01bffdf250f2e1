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

    /// The report gpsd's TPV would carry: only time and mode below 2D, and the wind (in any
    /// mode) when reported at a wind sentence (`wind`).
    func report(status: Int, device: String?, wind: Bool = false) -> Fix {
        var fix = Fix(mode: FixMode(rawValue: mode) ?? .unknown,
                      time: time > 0 ? Date(timeIntervalSince1970: time) : nil,
                      device: device)
        if status > 0 { fix.status = FixStatus(rawValue: status) }
        if time > 0 { fix.ept = Self.value(ept) }
        if wind {
            fix.wind = Wind(magneticAngle: Self.value(windAngleMagnetic), relativeAngle: Self.value(windAngleRelative),
                            trueAngle: Self.value(windAngleTrue), relativeSpeed: Self.value(windSpeedRelative),
                            trueSpeed: Self.value(windSpeedTrue))
        }
        guard mode >= 2 else { return fix }
        if latitude.isFinite && longitude.isFinite {
            fix.latitude = latitude
            fix.longitude = longitude
        }
        // gpsd 3.22 prints altitude, epv and climb whenever they are known, in 2D too.
        fix.altitudeHAE = Self.value(altHAE)
        fix.altitudeMSL = Self.value(altMSL)
        fix.epv = Self.value(epv)
        fix.climb = Self.value(climb)
        if epx.isFinite && epy.isFinite {
            fix.epx = epx
            fix.epy = epy
        }
        fix.track = Self.value(track)
        fix.magneticTrack = Self.value(magneticTrack)
        fix.magneticVariation = Self.value(magneticVariation)
        fix.speed = Self.value(speed)
        fix.geoidSeparation = Self.value(geoidSeparation)
        fix.eph = Self.value(eph)
        fix.sep = Self.value(sep)
        fix.depth = Self.value(depth)
        fix.epd = Self.value(epd)
        fix.eps = Self.value(eps)
        // gpsd 3.22 prints epc and the geoid separation in 3D only.
        if mode >= 3 {
            fix.epc = Self.value(epc)
        } else {
            fix.geoidSeparation = nil
        }
        if dgpsAge.isFinite && dgpsStation >= 0 {
            fix.dgpsAge = dgpsAge
            fix.dgpsStation = dgpsStation
        }
        return fix
    }

    /// The same report as ``report(status:device:wind:)``, as raw TPV numbers for the JSON bulk path.
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

    @inline(__always)
    private static func value(_ v: Double) -> Double? { v.isFinite ? v : nil }
}
