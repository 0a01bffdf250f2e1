import FoundationEssentials

/// The receiver's own statistics of its position's error (gpsd GST, from an NMEA GST sentence
/// or a receiver's binary equivalent): standard deviations in metres, one sigma. For a survey
/// or RTK receiver these are the errors to believe, where gpsd's TPV gives DOP × UERE.
public struct PseudorangeNoise: Sendable, Hashable {
    /// The receiver, when known.
    public var device: String?
    /// The time of the fix the statistics describe, when known.
    public var time: Date?
    /// The RMS of the standard deviations of the ranges used in the solution (gpsd `rms`).
    public var rangeRMS: Double?
    /// The error ellipse's semi-major axis (gpsd `major`).
    public var semiMajor: Double?
    /// The error ellipse's semi-minor axis (gpsd `minor`).
    public var semiMinor: Double?
    /// The semi-major axis's orientation, degrees from true north (gpsd `orient`).
    public var orientation: Double?
    /// The latitude's error (gpsd `lat`).
    public var latitudeError: Double?
    /// The longitude's error (gpsd `lon`).
    public var longitudeError: Double?
    /// The altitude's error (gpsd `alt`).
    public var altitudeError: Double?
    /// Members of gpsd's GST that GeoTrack does not read (newer gpsd's velocity errors), as
    /// gpsd sent them: written back after the known ones.
    public var otherMembers: String?

    /// Creates a report; every statistic unknown until set.
    public init(device: String? = nil, time: Date? = nil) {
        self.device = device
        self.time = time
    }

    /// The report as gpsd prints it (`{"class":"GST",…}`): the known statistics with three
    /// decimals, in gpsd's order, those unknown left out.
    public func gstJSON() -> String {
        var writer = JSONWriter()
        writer.raw("{\"class\":\"GST\"")
        writer.stringField(",\"device\":", device)
        if let time {
            writer.raw(",\"time\":")
            writer.isoTime(secondsSince1970: time.timeIntervalSince1970)
        }
        for (name, value) in [(",\"rms\":", rangeRMS), (",\"major\":", semiMajor), (",\"minor\":", semiMinor),
                              (",\"orient\":", orientation), (",\"lat\":", latitudeError), (",\"lon\":", longitudeError),
                              (",\"alt\":", altitudeError)] as [(StaticString, Double?)] {
            guard let value, value.isFinite else { continue }
            writer.raw(name)
            writer.fixed(value, decimals: 3)
        }
        var text = writer.withBytes { String(decoding: $0, as: UTF8.self) }
        if let otherMembers, !otherMembers.isEmpty { text += "," + otherMembers }
        return text + "}"
    }
}
