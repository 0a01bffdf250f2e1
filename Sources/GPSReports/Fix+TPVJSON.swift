import Foundation

extension Fix {
    /// The fix as one line of gpsd TPV JSON, with gpsd's names, units and number formats.
    ///
    /// Fields that are `nil` are left out. `time` has millisecond precision, `lat`/`lon`
    /// nine decimals, as gpsd prints them:
    /// `{"class":"TPV","device":"/dev/ttyACM0","mode":3,"time":"2017-01-10T00:09:42.000Z","lat":44.068900000,...}`
    public func tpvJSON() -> String {
        var writer = JSONWriter()
        appendTPVJSON(to: &writer)
        return writer.withBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Appends the TPV JSON object (no newline) to `writer`: the allocation-free path for bulk output.
    package func appendTPVJSON(to writer: inout JSONWriter) {
        writer.reserve(768 + (device?.utf8.count ?? 0) * 6)
        writer.raw("{\"class\":\"TPV\"")
        if let device {
            writer.raw(",\"device\":")
            writer.string(device)
        }
        if let status {
            writer.raw(",\"status\":")
            writer.integer(status.rawValue)
        }
        writer.raw(",\"mode\":")
        writer.integer(mode.rawValue)
        if let time {
            writer.raw(",\"time\":")
            writer.isoTime(secondsSince1970: time.timeIntervalSince1970)
        }
        Self.field(&writer, ",\"ept\":", ept, 3)
        Self.field(&writer, ",\"lat\":", latitude, 9)
        Self.field(&writer, ",\"lon\":", longitude, 9)
        Self.field(&writer, ",\"altHAE\":", altitudeHAE, 4)
        Self.field(&writer, ",\"altMSL\":", altitudeMSL, 4)
        Self.field(&writer, ",\"epx\":", epx, 3)
        Self.field(&writer, ",\"epy\":", epy, 3)
        Self.field(&writer, ",\"epv\":", epv, 3)
        Self.field(&writer, ",\"track\":", track, 4)
        Self.field(&writer, ",\"magtrack\":", magneticTrack, 4)
        Self.field(&writer, ",\"magvar\":", magneticVariation, 1)
        Self.field(&writer, ",\"speed\":", speed, 3)
        Self.field(&writer, ",\"climb\":", climb, 3)
        Self.field(&writer, ",\"epd\":", epd, 4)
        Self.field(&writer, ",\"eps\":", eps, 2)
        Self.field(&writer, ",\"epc\":", epc, 2)
        Self.field(&writer, ",\"geoidSep\":", geoidSeparation, 3)
        Self.field(&writer, ",\"eph\":", eph, 3)
        writer.raw("}")
    }

    @inline(__always)
    private static func field(_ writer: inout JSONWriter, _ name: StaticString, _ value: Double?, _ decimals: Int) {
        guard let value, value.isFinite else { return }
        writer.raw(name)
        writer.fixed(value, decimals: decimals)
    }
}
