extension JSONWriter {
    /// The most a TPV object's fields take after its opening: every number at its widest.
    private static let tpvFieldsCapacity = 768

    /// Appends one TPV object (no newline) with gpsd's names, order and number formats.
    /// `otherMembers` (`"key":value,...`, already JSON) go after the known fields.
    package mutating func tpv(_ v: TPVValues, device: String?, otherMembers: String? = nil) {
        tpvOpening(device: device)
        tpvFields(v, otherMembers: otherMembers)
    }

    /// Appends each of `batch` as a TPV line, ended by a newline, all naming `device`: the bulk
    /// path, which escapes the device name once and copies it for the lines after the first.
    package mutating func tpvLines(_ batch: UnsafeBufferPointer<TPVValues>, device: String?) {
        guard !batch.isEmpty else { return }
        let openingStart = count
        tpvOpening(device: device)
        let openingLength = count - openingStart
        for index in batch.indices {
            if index > batch.startIndex { repeatBytes(at: openingStart, length: openingLength) }
            tpvFields(batch[index])
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
    private mutating func tpvFields(_ v: TPVValues, otherMembers: String? = nil) {
        reserve(Self.tpvFieldsCapacity)
        // gpsd 3.22 prints status from 2 (DGPS) up: "to save rebuilding all the regressions".
        if v.status >= 2 {
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
        field(21, ",\"depth\":", v.depth, 3)
        if v.dgpsAge.isFinite && v.dgpsStation >= 0 {
            field(20, ",\"dgpsAge\":", v.dgpsAge, 1)
            raw(",\"dgpsSta\":")
            integer(v.dgpsStation)
        }
        if v.hasWind {
            // Rare (marine logs), so not worth a cached slot each.
            plainField(",\"wanglem\":", v.windAngleMagnetic, 1)
            plainField(",\"wangler\":", v.windAngleRelative, 1)
            plainField(",\"wanglet\":", v.windAngleTrue, 1)
            plainField(",\"wspeedr\":", v.windSpeedRelative, 1)
            plainField(",\"wspeedt\":", v.windSpeedTrue, 1)
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
