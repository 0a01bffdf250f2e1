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
        field(0, ",\"ept\":", v.ept, 3)
        field(1, ",\"lat\":", v.latitude, 9)
        field(2, ",\"lon\":", v.longitude, 9)
        field(3, ",\"altHAE\":", v.altHAE, 4)
        field(4, ",\"altMSL\":", v.altMSL, 4)
        // gpsd 3.22 still prints the deprecated `alt`, as altMSL, for older clients.
        field(18, ",\"alt\":", v.altMSL, 4)
        field(5, ",\"epx\":", v.epx, 3)
        field(6, ",\"epy\":", v.epy, 3)
        field(7, ",\"epv\":", v.epv, 3)
        field(8, ",\"track\":", v.track, 4)
        field(9, ",\"magtrack\":", v.magneticTrack, 4)
        field(10, ",\"magvar\":", v.magneticVariation, 1)
        field(11, ",\"speed\":", v.speed, 3)
        field(12, ",\"climb\":", v.climb, 3)
        field(13, ",\"epd\":", v.epd, 4)
        field(14, ",\"eps\":", v.eps, 2)
        field(15, ",\"epc\":", v.epc, 2)
        field(16, ",\"geoidSep\":", v.geoidSeparation, 3)
        field(17, ",\"eph\":", v.eph, 3)
        field(19, ",\"sep\":", v.sep, 3)
        raw("}")
    }

    @inline(__always)
    private mutating func field(_ slot: Int, _ name: StaticString, _ value: Double, _ decimals: Int) {
        guard value.isFinite else { return }
        cachedField(slot, name, value, decimals)
    }
}
