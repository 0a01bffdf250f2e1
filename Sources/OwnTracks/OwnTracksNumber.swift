/// How OwnTracks' integer fields are made from numbers, read or written: one rule for all.
public enum OwnTracksNumber {
    /// The largest magnitude kept: far beyond any accuracy, altitude, speed or time in seconds a
    /// receiver reports, and far within `Int`, so converting can never trap.
    public static let limit = 1e12

    /// The number at `key`, sent as a JSON number or as a string holding one (some clients
    /// and the Recorder's HTTP mode send `"tst":"1700000000"`); nil when absent or neither.
    public static func decode<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key) -> Double? {
        if let number = try? container.decodeIfPresent(Double.self, forKey: key) { return number.isFinite ? number : nil }
        guard let text = try? container.decodeIfPresent(String.self, forKey: key) else { return nil }
        return Double(text.filter { $0 != " " }).flatMap { $0.isFinite ? $0 : nil }
    }

    /// `value` as a whole number, or nil when it is not finite or is beyond ``limit``.
    public static func whole(_ value: Double, rounding rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> Int? {
        value.isFinite && abs(value) < limit ? Int(value.rounded(rule)) : nil
    }
}
