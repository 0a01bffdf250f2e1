import FoundationEssentials
import GPSReports

/// Times as geotrack writes them, always in UTC and without a formatter (these run for every
/// fix): the one formatter of the status line, the sky view, event lines, GPX, SVG, the
/// statistics and the outbox listing.
package enum UTCText {
    /// ISO 8601 UTC with milliseconds when the time has them (``UTCTime``); an impossible time
    /// (beyond year 9999) as the epoch.
    package static func timestamp(_ date: Date) -> String {
        (UTCTime(secondsSince1970: date.timeIntervalSince1970) ?? UTCTime.epoch)
            .iso8601(milliseconds: .whenNotZero)
    }

    /// `HH:MM:SSZ`, or `--:--:--Z` for an impossible time.
    package static func timeOfDay(_ date: Date) -> String {
        UTCTime(secondsSince1970: date.timeIntervalSince1970)?.timeOfDay() ?? "--:--:--Z"
    }

    /// A fix's time of day: `HH:MM:SSZ`, with `.mmm` when it falls between whole seconds (a
    /// receiver at 5 or 10 Hz), so that its fixes are told apart.
    package static func fixTimeOfDay(_ date: Date) -> String {
        UTCTime(secondsSince1970: date.timeIntervalSince1970)?.timeOfDay(milliseconds: .whenNotZero) ?? "--:--:--Z"
    }
}
