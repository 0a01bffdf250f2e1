import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

extension Fix {
    /// The fix as one line of gpsd TPV JSON, with gpsd's names, units and number formats.
    ///
    /// Fields that are `nil` are left out; the members GeoTrack does not read
    /// (``otherTPVMembers``) follow the others, as gpsd wrote them. `time` has millisecond precision, `lat`/`lon`
    /// nine decimals, as gpsd prints them:
    /// `{"class":"TPV","device":"/dev/ttyACM0","mode":3,"time":"2017-01-10T00:09:42.000Z","lat":44.068900000,...}`
    public func tpvJSON() -> String {
        var writer = JSONWriter()
        appendTPVJSON(to: &writer)
        return writer.withBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Appends the TPV JSON object (no newline) to `writer`: the allocation-free path for bulk output.
    package func appendTPVJSON(to writer: inout JSONWriter) {
        writer.tpv(tpvValues, device: device, otherMembers: otherTPVMembers)
    }

    /// The fix's numbers, NaN where unknown.
    package var tpvValues: TPVValues {
        var v = TPVValues()
        v.status = status?.rawValue ?? 0
        v.mode = mode.rawValue
        v.time = time?.timeIntervalSince1970 ?? 0
        v.ept = ept ?? .nan
        v.latitude = latitude ?? .nan
        v.longitude = longitude ?? .nan
        v.altHAE = altitudeHAE ?? .nan
        v.altMSL = altitudeMSL ?? .nan
        v.epx = epx ?? .nan
        v.epy = epy ?? .nan
        v.epv = epv ?? .nan
        v.track = track ?? .nan
        v.magneticTrack = magneticTrack ?? .nan
        v.magneticVariation = magneticVariation ?? .nan
        v.speed = speed ?? .nan
        v.climb = climb ?? .nan
        v.epd = epd ?? .nan
        v.eps = eps ?? .nan
        v.epc = epc ?? .nan
        v.geoidSeparation = geoidSeparation ?? .nan
        v.eph = eph ?? .nan
        v.sep = sep ?? .nan
        v.depth = depth ?? .nan
        if let wind {
            v.hasWind = true
            v.windAngleMagnetic = wind.magneticAngle ?? .nan
            v.windAngleRelative = wind.relativeAngle ?? .nan
            v.windAngleTrue = wind.trueAngle ?? .nan
            v.windSpeedRelative = wind.relativeSpeed ?? .nan
            v.windSpeedTrue = wind.trueSpeed ?? .nan
        }
        if let dgpsAge, let dgpsStation {
            v.dgpsAge = dgpsAge
            v.dgpsStation = dgpsStation
        }
        return v
    }
}

extension Fix {
    /// The fix whose TPV numbers are `v` (NaN for unknown, as ``tpvValues`` gives them): the
    /// inverse of ``tpvValues``, so a decoder keeps gpsd's rules for what a TPV holds in one place.
    package init(tpvValues v: TPVValues, device: String?) {
        func known(_ value: Double) -> Double? { value.isFinite ? value : nil }
        self.init(mode: FixMode(rawValue: v.mode) ?? .unknown,
                  time: v.time > 0 ? Date(timeIntervalSince1970: v.time) : nil, device: device)
        status = v.status > 0 ? FixStatus(rawValue: v.status) : nil
        ept = known(v.ept)
        if v.latitude.isFinite && v.longitude.isFinite {
            latitude = v.latitude
            longitude = v.longitude
        }
        altitudeHAE = known(v.altHAE)
        altitudeMSL = known(v.altMSL)
        if v.epx.isFinite && v.epy.isFinite {
            epx = v.epx
            epy = v.epy
        }
        epv = known(v.epv)
        track = known(v.track)
        magneticTrack = known(v.magneticTrack)
        magneticVariation = known(v.magneticVariation)
        speed = known(v.speed)
        climb = known(v.climb)
        epd = known(v.epd)
        eps = known(v.eps)
        epc = known(v.epc)
        geoidSeparation = known(v.geoidSeparation)
        eph = known(v.eph)
        sep = known(v.sep)
        depth = known(v.depth)
        if v.dgpsAge.isFinite && v.dgpsStation >= 0 {
            dgpsAge = v.dgpsAge
            dgpsStation = v.dgpsStation
        }
        if v.hasWind {
            wind = Wind(magneticAngle: known(v.windAngleMagnetic), relativeAngle: known(v.windAngleRelative),
                        trueAngle: known(v.windAngleTrue), relativeSpeed: known(v.windSpeedRelative),
                        trueSpeed: known(v.windSpeedTrue))
        }
    }
}
