import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A `--gpx` or `--svg` name with the run's start in it, so that a service that starts again
/// (at each boot, after a restart) records into a file of its own instead of being refused the
/// last one: `%Y`, `%m`, `%d`, `%H`, `%M` and `%S` stand for the start's year, month, day, hour,
/// minute and second in local time, as `date` writes them, and `%%` for a percent sign. Any
/// other `%` is refused, so that a name is never taken for a pattern it is not.
enum FileNamePattern {
    /// When the run started, as the names give it: the first time a name is read.
    static let start = Date()

    /// Why `name` is no pattern (a `%` that is none of those above), or nil.
    static func problem(_ name: String) -> String? {
        var characters = name.makeIterator()
        while let character = characters.next() {
            guard character == "%" else { continue }
            guard let next = characters.next(), "YmdHMS%".contains(next) else {
                return "a % in a file name takes one of %Y, %m, %d, %H, %M, %S (the start's date and time) or %% (a percent sign)"
            }
        }
        return nil
    }

    /// `name` with each `%` sequence replaced by `date`'s part in local time; a name without
    /// `%` is itself.
    static func expand(_ name: String, at date: Date = start) -> String {
        guard name.contains("%") else { return name }
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return name }
        func padded(_ value: Int32, _ digits: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, digits - text.count)) + text
        }
        var out = ""
        var characters = name.makeIterator()
        while let character = characters.next() {
            guard character == "%", let next = characters.next() else {
                out.append(character)
                continue
            }
            switch next {
            case "Y": out += padded(parts.tm_year + 1900, 4)
            case "m": out += padded(parts.tm_mon + 1, 2)
            case "d": out += padded(parts.tm_mday, 2)
            case "H": out += padded(parts.tm_hour, 2)
            case "M": out += padded(parts.tm_min, 2)
            case "S": out += padded(parts.tm_sec, 2)
            default: out.append(next)
            }
        }
        return out
    }
}
