/// A moment as UTC civil fields, to the millisecond: the one place GeoTrack turns seconds since
/// 1970 into a date and a time of day for text (TPV JSON, GPX, the status line, statistics).
///
/// The moment is rounded to the nearest millisecond first, as gpsd prints `time`, so every
/// output shows the same second for the same fix.
package struct UTCTime: Sendable, Hashable {
    /// Days since 1970-01-01 (negative before it).
    package let days: Int64
    /// Milliseconds since the day's midnight, 0 to 86 399 999.
    package let millisecondOfDay: Int

    /// The latest moment formatted: year 9999. Times beyond (from hostile input) have no text.
    private static let limit = 253_402_300_800.0

    /// 1970-01-01T00:00:00.000Z.
    package static let epoch = UTCTime(days: 0, millisecondOfDay: 0)

    private init(days: Int64, millisecondOfDay: Int) {
        self.days = days
        self.millisecondOfDay = millisecondOfDay
    }

    /// The moment `seconds` after 1970, or nil when it is not a number or beyond year 9999 either way.
    package init?(secondsSince1970 seconds: Double) {
        guard seconds.isFinite, abs(seconds) < Self.limit else { return nil }
        let total = Int64((seconds * 1000).rounded())
        let days = total >= 0 ? total / 86_400_000 : (total - 86_399_999) / 86_400_000
        self.days = days
        self.millisecondOfDay = Int(total - days * 86_400_000)
    }

    /// The calendar date.
    package var date: CivilDate { CivilDate(daysSince1970: Int(days)) }
    /// Hours, minutes, seconds and milliseconds of the day.
    package var hour: Int { millisecondOfDay / 3_600_000 }
    package var minute: Int { millisecondOfDay / 60_000 % 60 }
    package var second: Int { millisecondOfDay / 1000 % 60 }
    package var millisecond: Int { millisecondOfDay % 1000 }

    /// `2017-01-10T00:09:42.000Z`, or without `.000` when `milliseconds` is `.whenNotZero` and
    /// the moment is a whole second.
    package func iso8601(milliseconds: Milliseconds = .always) -> String {
        let d = date
        var text = Self.digits(max(0, d.year), 4) + "-" + Self.digits(d.month, 2) + "-" + Self.digits(d.day, 2)
            + "T" + timeOfDay(withZone: false)
        if milliseconds == .always || millisecond != 0 { text += "." + Self.digits(millisecond, 3) }
        return text + "Z"
    }

    /// `hh:mm:ss`, then `.mmm` when `milliseconds` asks for them, then `Z` when `withZone`.
    package func timeOfDay(withZone: Bool = true, milliseconds: Milliseconds? = nil) -> String {
        var text = Self.digits(hour, 2) + ":" + Self.digits(minute, 2) + ":" + Self.digits(second, 2)
        if let milliseconds, milliseconds == .always || millisecond != 0 { text += "." + Self.digits(millisecond, 3) }
        return text + (withZone ? "Z" : "")
    }

    /// Whether a text shows the milliseconds.
    package enum Milliseconds: Sendable {
        case always
        case whenNotZero
    }

    private static func digits(_ value: Int, _ count: Int) -> String {
        let text = String(value)
        let length = text.utf8.count
        return length >= count ? text : String(repeating: "0", count: count - length) + text
    }
}
