extension Device {
    /// The receiver as one line of gpsd DEVICE JSON, with gpsd's names:
    /// `{"class":"DEVICE","path":"/dev/ttyUSB0","driver":"u-blox","subtype":"…","activated":"…","bps":9600,"cycle":1.00}`.
    /// Unknown values are left out; strings are escaped, so nothing in them reaches a terminal raw.
    public func deviceJSON() -> String {
        var writer = JSONWriter()
        writer.raw("{\"class\":\"DEVICE\",\"path\":")
        writer.string(path)
        writer.stringField(",\"driver\":", driver)
        writer.stringField(",\"subtype\":", subtype)
        if let activated {
            writer.raw(",\"activated\":")
            writer.isoTime(secondsSince1970: activated.timeIntervalSince1970)
        }
        if let bitsPerSecond {
            writer.raw(",\"bps\":")
            writer.integer(bitsPerSecond)
        }
        if let cycle, cycle.isFinite {
            writer.raw(",\"cycle\":")
            writer.fixed(cycle, decimals: 2)
        }
        writer.raw("}")
        return writer.withBytes { String(decoding: $0, as: UTF8.self) }
    }
}
