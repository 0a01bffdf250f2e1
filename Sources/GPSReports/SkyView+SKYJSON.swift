extension SkyView {
    /// The sky view as one line of gpsd SKY JSON, with gpsd's names and number formats:
    /// `{"class":"SKY","device":…,"time":…,"xdop":0.64,…,"nSat":1,"uSat":1,"satellites":[{"PRN":5,"el":28.0,"az":139.0,"ss":43.0,"used":true,"gnssid":0,"svid":5}]}`.
    /// Unknown values are left out; `nSat` (satellites listed) and `uSat` (those used) are always
    /// there, before the list, as gpsd 3.22 prints them.
    public func skyJSON() -> String {
        var writer = JSONWriter()
        writer.raw("{\"class\":\"SKY\"")
        writer.stringField(",\"device\":", device)
        if let time {
            writer.raw(",\"time\":")
            writer.isoTime(secondsSince1970: time.timeIntervalSince1970)
        }
        for (name, value) in [(",\"xdop\":", xdop), (",\"ydop\":", ydop), (",\"vdop\":", vdop), (",\"tdop\":", tdop),
                              (",\"hdop\":", hdop), (",\"gdop\":", gdop), (",\"pdop\":", pdop)] as [(StaticString, Double?)] {
            guard let value, value.isFinite else { continue }
            writer.raw(name)
            writer.fixed(value, decimals: 2)
        }
        // Counted from the list itself, as gpsd counts its own: a receiver's GGA count of used
        // satellites (`reportedUsedCount`) is not what gpsd prints here.
        writer.raw(",\"nSat\":")
        writer.integer(satellites.count)
        writer.raw(",\"uSat\":")
        writer.integer(satellites.lazy.filter(\.used).count)
        writer.raw(",\"satellites\":[")
        for (index, satellite) in satellites.enumerated() {
            writer.raw(index == 0 ? "{\"PRN\":" : ",{\"PRN\":")
            writer.integer(satellite.prn)
            for (name, value) in [(",\"el\":", satellite.elevation), (",\"az\":", satellite.azimuth),
                                  (",\"ss\":", satellite.signalStrength)] as [(StaticString, Double?)] {
                guard let value, value.isFinite else { continue }
                writer.raw(name)
                writer.fixed(value, decimals: 1)
            }
            writer.raw(satellite.used ? ",\"used\":true" : ",\"used\":false")
            if let gnssID = satellite.gnssID {
                writer.raw(",\"gnssid\":")
                writer.integer(gnssID)
            }
            if let svID = satellite.svID {
                writer.raw(",\"svid\":")
                writer.integer(svID)
            }
            // gpsd prints health only when the receiver said it.
            if let health = satellite.health {
                writer.raw(",\"health\":")
                writer.integer(health.rawValue)
            }
            writer.raw("}")
        }
        writer.raw("]}")
        return writer.withBytes { String(decoding: $0, as: UTF8.self) }
    }
}
