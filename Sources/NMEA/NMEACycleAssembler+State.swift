import FoundationEssentials
import GPSReports

/// Comparing and seeding assembler states, for decoding a log in chunks on several threads
/// (``ParallelTPVJSON``): a chunk decoded from a guessed state may be used from the first point
/// where its state is the same as that of the decoder that read everything before it, since
/// from there the same bytes make the same fixes.
extension NMEACycleAssembler {
    /// The stored properties ``hasSameState(as:)`` compares. A test holds this list to the
    /// type's own (by reflection), so a property added later cannot be left out unnoticed:
    /// two states that differed only in it would be taken for the same.
    static let comparedProperties: Set<String> = [
        "device", "wantsSky", "wantsAttitude", "collectsRawFixes",
        "year", "month", "day", "hour", "minute", "second", "subseconds", "century", "headerDate", "sawDateSentence",
        "thisFractionalTime", "lastFractionalTime", "latchFractionalTime", "lastTag", "cycleEnders", "cycleContinues",
        "lastGGATalker", "lastGGATimestamp", "latchMode",
        "lastGSATalker", "lastGSVTalker",
        "seenGLGSA", "seenBDGSA", "seenGAGSA", "seenGNGSA",
        "seenGLGSV", "seenBDGSV", "seenGAGSV", "seenQZSS", "seenGPGSV",
        "satellitesUsed", "usedPRNs", "gsvAwait", "gsvPart", "sky", "skyCount", "skyHasAzimuth",
        "pdop", "hdop", "vdop", "xdop", "ydop", "geometry",
        "status", "fix", "lastFix", "oldFix", "newData", "attitude", "attitudeChanged", "errorModelRanPlain",
    ]
    /// Stored properties left out, and why: the fixes collected so far are output, not state;
    /// the last GST statistics are kept but read by nothing that decodes (gpsd 3.22 leaves them
    /// out of the TPV too). Should a fix ever use them, they must move to the list above. The
    /// memos of distances, of the geoid and magnetic models and of the month's first day only
    /// save work: what they give is the same whatever they hold.
    static let ignoredProperties: Set<String> = ["rawFixes", "gst", "distances", "models", "monthStart"]
    /// The properties of a ``Satellite`` and an ``Attitude`` that are compared (held to the types' own by a test).
    static let comparedSatelliteProperties: Set<String> = [
        "prn", "gnssID", "svID", "elevation", "azimuth", "signalStrength", "used", "health",
    ]
    static let comparedAttitudeProperties: Set<String> = [
        "device", "time", "heading", "magneticHeading", "magneticDeviation", "magneticVariation", "pitch", "roll",
        "yaw", "source",
    ]

    /// Whether every property that decides what later sentences make is the same in `other`.
    ///
    /// Properties that can no longer change what is decoded are left out: the header's date once
    /// a sentence has given the date, and the GST statistics (``ignoredProperties``).
    ///
    /// Numbers are compared bit for bit (so 0 and -0, which print differently, differ), except
    /// that any two NaNs are the same: NaN stands for "unknown" here and is never printed.
    /// Saying "different" wrongly only costs time; saying "same" wrongly would change the
    /// output, so nothing is left out.
    func hasSameState(as other: Self) -> Bool {
        device == other.device && wantsSky == other.wantsSky && wantsAttitude == other.wantsAttitude
            && collectsRawFixes == other.collectsRawFixes
            && year == other.year && month == other.month && day == other.day
            && hour == other.hour && minute == other.minute && second == other.second
            && Self.same(subseconds, other.subseconds) && century == other.century
            && sawDateSentence == other.sawDateSentence
            // A header's date is read only until a sentence has given a date, never after.
            && (sawDateSentence || headerDate == other.headerDate)
            && Self.same(thisFractionalTime, other.thisFractionalTime)
            && Self.same(lastFractionalTime, other.lastFractionalTime)
            && latchFractionalTime == other.latchFractionalTime && lastTag == other.lastTag
            && cycleEnders == other.cycleEnders && cycleContinues == other.cycleContinues
            && lastGGATalker == other.lastGGATalker && lastGGATimestamp == other.lastGGATimestamp
            && latchMode == other.latchMode
            && lastGSATalker == other.lastGSATalker && lastGSVTalker == other.lastGSVTalker
            && seenGLGSA == other.seenGLGSA && seenBDGSA == other.seenBDGSA && seenGAGSA == other.seenGAGSA
            && seenGNGSA == other.seenGNGSA
            && seenGLGSV == other.seenGLGSV && seenBDGSV == other.seenBDGSV && seenGAGSV == other.seenGAGSV
            && seenQZSS == other.seenQZSS && seenGPGSV == other.seenGPGSV
            && satellitesUsed == other.satellitesUsed && usedPRNs == other.usedPRNs
            && gsvAwait == other.gsvAwait && gsvPart == other.gsvPart
            && sky.count == other.sky.count && zip(sky, other.sky).allSatisfy { Self.same($0, $1) }
            && skyCount == other.skyCount && skyHasAzimuth == other.skyHasAzimuth
            && Self.same(pdop, other.pdop) && Self.same(hdop, other.hdop) && Self.same(vdop, other.vdop)
            && Self.same(xdop, other.xdop) && Self.same(ydop, other.ydop)
            && geometry.hasSameLines(as: other.geometry)
            && status == other.status
            && fix.hasSameValues(as: other.fix) && lastFix.hasSameValues(as: other.lastFix)
            && oldFix.hasSameValues(as: other.oldFix) && newData.hasSameValues(as: other.newData)
            && Self.same(attitude, other.attitude) && attitudeChanged == other.attitudeChanged
            && errorModelRanPlain == other.errorModelRanPlain
    }

    /// A state to start a chunk from, taken from a decoder's state at an earlier point of the
    /// same log: what lasts through a log (the learned end of a cycle, the date, the checksum
    /// habit, the constellations seen) is kept, so that the chunk's state soon becomes the
    /// real one. Only the tag of the last timed sentence goes: seen in the middle of a cycle,
    /// it would be learned as the cycle's end at the chunk's first change of time, for good.
    func seed() -> Self {
        var seeded = self
        seeded.lastTag = 0
        seeded.latchFractionalTime = false
        return seeded
    }

    static func same(_ a: Double, _ b: Double) -> Bool {
        a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN)
    }

    static func same(_ a: Double?, _ b: Double?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case let (a?, b?): same(a, b)
        default: false
        }
    }

    private static func same(_ a: Date?, _ b: Date?) -> Bool {
        same(a?.timeIntervalSinceReferenceDate, b?.timeIntervalSinceReferenceDate)
    }

    private static func same(_ a: Satellite, _ b: Satellite) -> Bool {
        a.prn == b.prn && a.gnssID == b.gnssID && a.svID == b.svID && same(a.elevation, b.elevation)
            && same(a.azimuth, b.azimuth) && same(a.signalStrength, b.signalStrength) && a.used == b.used
            && a.health == b.health
    }

    private static func same(_ a: Attitude, _ b: Attitude) -> Bool {
        a.device == b.device && same(a.time, b.time) && same(a.heading, b.heading)
            && same(a.magneticHeading, b.magneticHeading) && same(a.magneticDeviation, b.magneticDeviation)
            && same(a.magneticVariation, b.magneticVariation) && same(a.pitch, b.pitch) && same(a.roll, b.roll)
            && same(a.yaw, b.yaw) && a.source == b.source
    }
}

extension GPSDFix {
    /// The stored properties ``hasSameValues(as:)`` compares (held to the type's own by a test).
    static let comparedProperties: Set<String> = [
        "time", "mode", "status", "latitude", "longitude", "altHAE", "altMSL", "geoidSeparation", "speed", "track",
        "magneticTrack", "magneticVariation", "climb", "ept", "epx", "epy", "epv", "eph", "sep",
        "eps", "epd", "epc", "depth", "windAngleMagnetic", "windAngleRelative", "windAngleTrue",
        "windSpeedRelative", "windSpeedTrue", "dgpsAge", "dgpsStation",
    ]

    /// Whether every value is the same, bit for bit but for NaNs (see ``NMEACycleAssembler/hasSameState(as:)``).
    func hasSameValues(as other: Self) -> Bool {
        typealias A = NMEACycleAssembler
        return A.same(time, other.time) && mode == other.mode && status == other.status
            && A.same(latitude, other.latitude)
            && A.same(longitude, other.longitude) && A.same(altHAE, other.altHAE) && A.same(altMSL, other.altMSL)
            && A.same(geoidSeparation, other.geoidSeparation) && A.same(speed, other.speed)
            && A.same(track, other.track) && A.same(magneticTrack, other.magneticTrack)
            && A.same(magneticVariation, other.magneticVariation) && A.same(climb, other.climb)
            && A.same(ept, other.ept) && A.same(epx, other.epx) && A.same(epy, other.epy) && A.same(epv, other.epv)
            && A.same(eph, other.eph) && A.same(sep, other.sep)
            && A.same(eps, other.eps) && A.same(epd, other.epd) && A.same(epc, other.epc)
            && A.same(depth, other.depth)
            && A.same(windAngleMagnetic, other.windAngleMagnetic) && A.same(windAngleRelative, other.windAngleRelative)
            && A.same(windAngleTrue, other.windAngleTrue) && A.same(windSpeedRelative, other.windSpeedRelative)
            && A.same(windSpeedTrue, other.windSpeedTrue)
            && A.same(dgpsAge, other.dgpsAge) && dgpsStation == other.dgpsStation
    }
}

extension PreviousFix {
    /// The stored properties ``hasSameValues(as:)`` compares (held to the type's own by a test).
    static let comparedProperties: Set<String> = [
        "time", "mode", "latitude", "longitude", "altHAE", "altMSL", "epx", "epy", "epv",
    ]

    /// Whether every value is the same, bit for bit but for NaNs.
    func hasSameValues(as other: Self) -> Bool {
        typealias A = NMEACycleAssembler
        return A.same(time, other.time) && mode == other.mode && A.same(latitude, other.latitude)
            && A.same(longitude, other.longitude) && A.same(altHAE, other.altHAE) && A.same(altMSL, other.altMSL)
            && A.same(epx, other.epx) && A.same(epy, other.epy) && A.same(epv, other.epv)
    }
}

extension SatelliteGeometry {
    /// Whether the lines of sight are the same, bit for bit.
    func hasSameLines(as other: Self) -> Bool {
        typealias A = NMEACycleAssembler
        return lines.count == other.lines.count && zip(lines, other.lines).allSatisfy {
            A.same($0.east, $1.east) && A.same($0.north, $1.north) && A.same($0.up, $1.up)
        }
    }
}
