extension SkyView {
    /// The sky view as one line of gpsd SKY JSON, with gpsd's names and number formats:
    /// `{"class":"SKY","device":…,"time":…,"xdop":0.64,…,"nSat":1,"uSat":1,"satellites":[{"PRN":5,"el":28.0,"az":139.0,"ss":43.0,"used":true,"gnssid":0,"svid":5}]}`.
    /// Unknown values are left out, and so are an elevation beyond ±90° and an azimuth beyond
    /// ±359°; `nSat` and `uSat` are always there, before the list, as gpsd 3.22 prints them,
    /// except for a sky that lists no satellites and knows only how many were used
    /// (``listsSatellites``): it prints `uSat` alone, as gpsd 3.25 does for a GGA count.
    ///
    /// `nSat` and `uSat` count the satellites with a PRN (gpsd's decoders keep a satellite they
    /// could not number as PRN 0, and its SKY leaves those out). gpsd 3.22 then lists the
    /// numbered satellites among only the first `nSat` of its entries: when a PRN 0 comes
    /// before the last numbered one, it prints fewer satellites than `nSat` says, and so does
    /// this.
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
        // A sky with a list (every SKY gpsd sends) counts it, as gpsd counts its own. A sky
        // that knows only how many satellites were used (a GPX point's `<sat>`) says just that,
        // as gpsd 3.25 says a GGA count when it has no list: `uSat` alone, without `nSat`,
        // since how many were seen is unknown, not 0, and without `satellites`.
        guard let seen else {
            writer.raw(",\"uSat\":")
            writer.integer(used)
            writer.raw("}")
            return writer.withBytes { String(decoding: $0, as: UTF8.self) }
        }
        writer.raw(",\"nSat\":")
        writer.integer(seen)
        writer.raw(",\"uSat\":")
        writer.integer(used)
        // gpsd prints no list at all when nothing is numbered.
        if seen > 0 { writer.raw(",\"satellites\":[") }
        var first = true
        for satellite in listed {
            writer.raw(first ? "{\"PRN\":" : ",{\"PRN\":")
            first = false
            writer.integer(satellite.prn)
            if let elevation = satellite.elevation, elevation.isFinite, abs(elevation) <= 90 {
                writer.raw(",\"el\":")
                writer.fixed(elevation, decimals: 1)
            }
            if let azimuth = satellite.azimuth, azimuth.isFinite, abs(azimuth) <= 359 {
                writer.raw(",\"az\":")
                writer.fixed(azimuth, decimals: 1)
            }
            if let signalStrength = satellite.signalStrength, signalStrength.isFinite {
                writer.raw(",\"ss\":")
                writer.fixed(signalStrength, decimals: 1)
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
            // gpsd prints a signal only when it is not the first (0).
            if let signalID = satellite.signalID, signalID != 0 {
                writer.raw(",\"sigid\":")
                writer.integer(signalID)
            }
            // gpsd prints health only when the receiver said it.
            if let health = satellite.health {
                writer.raw(",\"health\":")
                writer.integer(health.rawValue)
            }
            writer.raw("}")
        }
        writer.raw(seen > 0 ? "]}" : "}")
        return writer.withBytes { String(decoding: $0, as: UTF8.self) }
    }
}
