/// How long ago, in the largest unit that fits: `4 s`, `12 min`, `3 h`, `2 d`.
package enum AgeText {
    /// The age of something `seconds` old; negative ages (a clock ahead) read as 0 s.
    package static func text(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds > 0 else { return "0 s" }
        let whole = Int(min(seconds, 1e9))
        switch whole {
        case ..<60: return "\(whole) s"
        case ..<3_600: return "\(whole / 60) min"
        case ..<86_400: return "\(whole / 3_600) h"
        default: return "\(whole / 86_400) d"
        }
    }

    /// How long until ``text(_:)`` of an age now `seconds` old reads differently, in seconds;
    /// `nil` when it never will. A view redraws the ages then, not on a ticker.
    package static func secondsUntilChange(_ seconds: Double) -> Double? {
        guard seconds.isFinite, seconds < 1e9 else { return nil }
        guard seconds >= 1 else { return 1 - seconds }
        let unit: Double
        switch seconds {
        case ..<60: unit = 1
        case ..<3_600: unit = 60
        case ..<86_400: unit = 3_600
        default: unit = 86_400
        }
        return ((seconds / unit).rounded(.down) + 1) * unit - seconds
    }
}
