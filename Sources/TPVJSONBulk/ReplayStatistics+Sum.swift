import NMEA

/// Counts of parts of a log added up, and the counts of a stretch of it taken as a difference:
/// a log decoded in chunks (``ParallelTPVJSON``) reports the same counts as one decoded whole.
extension ReplayStatistics {
    /// Every count of `self` plus `sign` times the same count of `other`.
    func combined(with other: ReplayStatistics, sign: Int) -> ReplayStatistics {
        var sum = self
        sum.sentences += sign * other.sentences
        sum.decoded += sign * other.decoded
        sum.badChecksums += sign * other.badChecksums
        sum.missingChecksums += sign * other.missingChecksums
        sum.unknown += sign * other.unknown
        sum.proprietary += sign * other.proprietary
        sum.junkRuns += sign * other.junkRuns
        sum.invalidValues += sign * other.invalidValues
        sum.oversized += sign * other.oversized
        sum.trackPoints += sign * other.trackPoints
        sum.skippedTrackPoints += sign * other.skippedTrackPoints
        sum.reports += sign * other.reports
        sum.repeatedTimes += sign * other.repeatedTimes
        // Not counts but what a document's start and end said, which only a GPX track (never
        // read in chunks) sets: a sum keeps either part's word, a difference the whole's.
        if sign > 0 {
            sum.foreignDocument = foreignDocument ?? other.foreignDocument
            sum.cutTrackPoint = cutTrackPoint || other.cutTrackPoint
        }
        return sum
    }

    /// The stored properties, by name, that ``combined(with:sign:)`` combines (held to the type's own by a test).
    static let combinedProperties: Set<String> = [
        "sentences", "decoded", "badChecksums", "missingChecksums", "unknown", "proprietary", "junkRuns",
        "invalidValues", "oversized", "trackPoints", "skippedTrackPoints", "reports", "repeatedTimes", "foreignDocument", "cutTrackPoint",
    ]
}
