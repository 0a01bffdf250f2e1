/// The numbers of one TPV report, NaN for "not known": what ``JSONWriter/tpv(_:)`` prints.
///
/// Both ``Fix/tpvJSON()`` and the NMEA replay's bulk path go through it, so the two always print
/// the same line for the same fix.
package struct TPVValues {
    /// gpsd `status`; 0 or less is left out.
    package var status = 0
    package var mode = 0
    /// Seconds since 1970; 0 or less is left out.
    package var time = 0.0
    package var ept = Double.nan
    package var latitude = Double.nan
    package var longitude = Double.nan
    package var altHAE = Double.nan
    package var altMSL = Double.nan
    package var epx = Double.nan
    package var epy = Double.nan
    package var epv = Double.nan
    package var track = Double.nan
    package var magneticTrack = Double.nan
    package var magneticVariation = Double.nan
    package var speed = Double.nan
    package var climb = Double.nan
    package var epd = Double.nan
    package var eps = Double.nan
    package var epc = Double.nan
    package var geoidSeparation = Double.nan
    package var eph = Double.nan

    /// Creates values with nothing known.
    package init() {}
}

extension JSONWriter {
    /// Appends one TPV object (no newline) with gpsd's names, order and number formats.
    package mutating func tpv(_ v: TPVValues, device: String?) {
        reserve(768 + (device?.utf8.count ?? 0) * 6)
        raw("{\"class\":\"TPV\"")
        if let device {
            raw(",\"device\":")
            string(device)
        }
        if v.status > 0 {
            raw(",\"status\":")
            integer(v.status)
        }
        raw(",\"mode\":")
        integer(v.mode)
        if v.time > 0 {
            raw(",\"time\":")
            isoTime(secondsSince1970: v.time)
        }
        field(",\"ept\":", v.ept, 3)
        field(",\"lat\":", v.latitude, 9)
        field(",\"lon\":", v.longitude, 9)
        field(",\"altHAE\":", v.altHAE, 4)
        field(",\"altMSL\":", v.altMSL, 4)
        field(",\"epx\":", v.epx, 3)
        field(",\"epy\":", v.epy, 3)
        field(",\"epv\":", v.epv, 3)
        field(",\"track\":", v.track, 4)
        field(",\"magtrack\":", v.magneticTrack, 4)
        field(",\"magvar\":", v.magneticVariation, 1)
        field(",\"speed\":", v.speed, 3)
        field(",\"climb\":", v.climb, 3)
        field(",\"epd\":", v.epd, 4)
        field(",\"eps\":", v.eps, 2)
        field(",\"epc\":", v.epc, 2)
        field(",\"geoidSep\":", v.geoidSeparation, 3)
        field(",\"eph\":", v.eph, 3)
        raw("}")
    }

    @inline(__always)
    private mutating func field(_ name: StaticString, _ value: Double, _ decimals: Int) {
        guard value.isFinite else { return }
        raw(name)
        fixed(value, decimals: decimals)
    }
}
