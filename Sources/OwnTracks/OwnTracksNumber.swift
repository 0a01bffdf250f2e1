/// How OwnTracks' integer fields are made from numbers, read or written: one rule for all.
public enum OwnTracksNumber {
    /// The largest magnitude kept: far beyond any accuracy, altitude, speed or time in seconds a
    /// receiver reports, and far within `Int`, so converting can never trap.
    public static let limit = 1e12

    /// `value` as a whole number, or nil when it is not finite or is beyond ``limit``.
    public static func whole(_ value: Double, rounding rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> Int? {
        value.isFinite && abs(value) < limit ? Int(value.rounded(rule)) : nil
    }
}
