extension JSONWriter {
    /// Every key of a TPV object GeoTrack writes, in the order it writes them (gpsd 3.22's):
    /// the one list of gpsd's TPV vocabulary. The gpsd client reads these keys into a ``Fix``
    /// and passes any other through as it came (``Fix/otherTPVMembers``); a test holds
    /// ``tpv(_:device:otherMembers:)`` to this order.
    package static let tpvKeys: [StaticString] = [
        "class", "device", "status", "mode", "time", "ept", "lat", "lon", "altHAE", "altMSL", "alt",
        "epx", "epy", "epv", "track", "magtrack", "magvar", "speed", "climb", "epd", "eps", "epc",
        "geoidSep", "eph", "sep", "depth", "dgpsAge", "dgpsSta", "wanglem", "wangler", "wanglet",
        "wspeedr", "wspeedt",
    ]

    /// The most a TPV object's fields take after its opening: every number at its widest.
    private static let tpvFieldsCapacity = 768

    /// Appends one TPV object (no newline) with gpsd's names, order and number formats.
    /// `otherMembers` (`"key":value,...`, already JSON) go after the known fields.
    package mutating func tpv(_ v: TPVValues, device: String?, otherMembers: String? = nil) {
        tpvOpening(device: device)
        withUnsafePointer(to: v) { tpvFields($0, otherMembers: otherMembers) }
    }

    /// Appends each of `batch` as a TPV line, ended by a newline, all naming `device`: the bulk
    /// path, which escapes the device name once and copies it for the lines after the first.
    package mutating func tpvLines(_ batch: UnsafeBufferPointer<TPVValues>, device: String?) {
        guard let values = batch.baseAddress, !batch.isEmpty else { return }
        let openingStart = count
        tpvOpening(device: device)
        let openingLength = count - openingStart
        for index in batch.indices {
            if index > batch.startIndex { repeatBytes(at: openingStart, length: openingLength) }
            tpvFields(values + index)
            byte(0x0A)
        }
    }

    /// `{"class":"TPV"`, and the device when there is one.
    private mutating func tpvOpening(device: String?) {
        raw("{\"class\":\"TPV\"")
        if let device {
            raw(",\"device\":")
            string(device)
        }
    }

    /// The fields after the opening, and the closing brace.
    ///
    /// The values are read where they are, field by field: passed by value, each line's (a few
    /// hundred bytes) was first copied whole by a call to memcpy.
    private mutating func tpvFields(_ v: UnsafePointer<TPVValues>, otherMembers: String? = nil) {
        reserve(Self.tpvFieldsCapacity)
        // gpsd 3.22 prints status from 2 (DGPS) up: "to save rebuilding all the regressions".
        if v.pointee.status >= 2 {
            raw(",\"status\":")
            integer(v.pointee.status)
        }
        raw(",\"mode\":")
        integer(v.pointee.mode)
        if v.pointee.time > 0 {
            raw(",\"time\":")
            isoTime(secondsSince1970: v.pointee.time)
        }
        field(0, ",\"ept\":", v.pointee.ept, 3)
        field(1, ",\"lat\":", v.pointee.latitude, 9)
        field(2, ",\"lon\":", v.pointee.longitude, 9)
        field(3, ",\"altHAE\":", v.pointee.altHAE, 4)
        field(4, ",\"altMSL\":", v.pointee.altMSL, 4)
        // gpsd 3.22 still prints the deprecated `alt`, as altMSL, for older clients.
        field(18, ",\"alt\":", v.pointee.altMSL, 4)
        field(5, ",\"epx\":", v.pointee.epx, 3)
        field(6, ",\"epy\":", v.pointee.epy, 3)
        field(7, ",\"epv\":", v.pointee.epv, 3)
        field(8, ",\"track\":", v.pointee.track, 4)
        field(9, ",\"magtrack\":", v.pointee.magneticTrack, 4)
        field(10, ",\"magvar\":", v.pointee.magneticVariation, 1)
        field(11, ",\"speed\":", v.pointee.speed, 3)
        field(12, ",\"climb\":", v.pointee.climb, 3)
        field(13, ",\"epd\":", v.pointee.epd, 4)
        field(14, ",\"eps\":", v.pointee.eps, 2)
        field(15, ",\"epc\":", v.pointee.epc, 2)
        field(16, ",\"geoidSep\":", v.pointee.geoidSeparation, 3)
        field(17, ",\"eph\":", v.pointee.eph, 3)
        field(19, ",\"sep\":", v.pointee.sep, 3)
        field(21, ",\"depth\":", v.pointee.depth, 3)
        if v.pointee.dgpsAge.isFinite && v.pointee.dgpsStation >= 0 {
            field(20, ",\"dgpsAge\":", v.pointee.dgpsAge, 1)
            raw(",\"dgpsSta\":")
            integer(v.pointee.dgpsStation)
        }
        if v.pointee.hasWind {
            // Rare (marine logs), so not worth a cached slot each.
            plainField(",\"wanglem\":", v.pointee.windAngleMagnetic, 1)
            plainField(",\"wangler\":", v.pointee.windAngleRelative, 1)
            plainField(",\"wanglet\":", v.pointee.windAngleTrue, 1)
            plainField(",\"wspeedr\":", v.pointee.windSpeedRelative, 1)
            plainField(",\"wspeedt\":", v.pointee.windSpeedTrue, 1)
        }
        if let otherMembers, !otherMembers.isEmpty {
            byte(UInt8(ascii: ","))
            for unit in otherMembers.utf8 { byte(unit) }
        }
        raw("}")
    }

    private mutating func plainField(_ name: StaticString, _ value: Double, _ decimals: Int) {
        guard value.isFinite else { return }
        raw(name)
        fixed(value, decimals: decimals)
    }

    @inline(__always)
    private mutating func field(_ slot: Int, _ name: StaticString, _ value: Double, _ decimals: Int) {
        guard value.isFinite else { return }
        cachedField(slot, name, value, decimals)
    }
}
