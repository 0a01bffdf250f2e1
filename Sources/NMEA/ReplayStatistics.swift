import GPSReports

/// What a replay read and what it skipped, by reason.
///
/// `description` reads like "12,034 sentences, 3 bad checksums, 41 unknown, 2 junk runs":
/// the sentence count always, every other count only when it is not zero.
public struct ReplayStatistics: Sendable, Hashable, CustomStringConvertible {
    /// Sentences framed in the input (`$…` or `!…` up to the end of the line), valid or not.
    public var sentences = 0
    /// Sentences decoded into the current fix, sky view or attitude.
    public var decoded = 0
    /// Sentences whose checksum did not match their content, or was malformed.
    public var badChecksums = 0
    /// Sentences without a checksum from a receiver that otherwise sends checksums.
    public var missingChecksums = 0
    /// Valid sentences of a type the decoder does not use (AIS, RMB, BOD, TXT…).
    public var unknown = 0
    /// Proprietary sentences (`$P…`), skipped.
    public var proprietary = 0
    /// Runs of bytes between sentences that are not NMEA (binary protocols, line noise, cut sentences).
    public var junkRuns = 0
    /// Sentences with a valid checksum but impossible content (latitude beyond ±90, bad time…),
    /// skipped.
    public var invalidValues = 0
    /// Lines too long to be NMEA (more than gpsd's 102 characters with CR LF), skipped.
    public var oversized = 0
    /// GPX track points read.
    public var trackPoints = 0
    /// GPX track points skipped for an impossible or unreadable value: a latitude beyond ±90, a
    /// longitude beyond ±180, a time or an elevation that is no time or number.
    public var skippedTrackPoints = 0
    /// Reports produced (fixes, sky views, attitudes).
    public var reports = 0
    /// GPX track points with a position at the time of the point before them: a GPX track
    /// (`--gpx`) and the statistics keep one point per time, the last.
    public var repeatedTimes = 0
    /// Whether the GPX input ended inside a track point, which was left out.
    public var cutTrackPoint = false
    /// The root element of an XML input that is not GPX (`kml`, `html`, `TrainingCenterDatabase`),
    /// made safe to print; such an input counts as a junk run.
    public var foreignDocument: String?

    /// Whether the input held something (framed sentences or junk) but nothing gpsd would read:
    /// no sentence decoded and no GPX track point. A binary or a text file, not a log.
    public var decodedNothing: Bool {
        decoded == 0 && trackPoints == 0 && (sentences > 0 || junkRuns > 0)
    }

    /// Creates empty statistics.
    public init() {}

    /// "12,034 sentences, 3 bad checksums, 41 unknown, 2 junk runs": the counts that are not zero.
    public var description: String {
        var parts = ["\(Self.grouped(sentences)) sentences"]
        func add(_ count: Int, _ singular: String, _ plural: String) {
            if count != 0 { parts.append("\(Self.grouped(count)) \(count == 1 ? singular : plural)") }
        }
        add(badChecksums, "bad checksum", "bad checksums")
        add(missingChecksums, "missing checksum", "missing checksums")
        add(unknown, "unknown", "unknown")
        add(proprietary, "proprietary", "proprietary")
        add(junkRuns, "junk run", "junk runs")
        add(invalidValues, "invalid value", "invalid values")
        add(oversized, "oversized", "oversized")
        add(trackPoints, "track point", "track points")
        add(skippedTrackPoints, "skipped track point", "skipped track points")
        return parts.joined(separator: ", ")
    }

    private static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, character) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(character)
        }
        return value < 0 ? "-" + out : out
    }
}

extension SourceError {
    /// The error for an input with nothing in it that gpsd would read (see ``ReplayStatistics/decodedNothing``),
    /// naming the kind of XML document it is when `statistics` found one that is not GPX.
    public static func notALog(_ path: String, _ statistics: ReplayStatistics = ReplayStatistics()) -> SourceError {
        let name = path == "-" ? "standard input" : path
        if let root = statistics.foreignDocument {
            return SourceError(.protocolError, message: "\(name) is an XML document but no GPX (its root element is <\(root)>); "
                               + "convert it to GPX first, such as with gpsbabel -i kml -f FILE -o gpx -F FILE.gpx for KML")
        }
        return SourceError(.protocolError, message:
            "\(name) holds no NMEA sentence or GPX track point gpsd would read; give an NMEA log or a GPX track")
    }
}
