import FoundationEssentials
import GPSReports
import GeoTrackService
import LocationKit
#if canImport(Glibc)
import Glibc
#endif

/// Renders the status line: a pure function of (the service's status, width, options) to one
/// line of text. What to show is the service's decision; this only lays it out.
///
/// The line never contains a newline and, when a width is given, never takes more than
/// `width - 1` columns, so that a terminal never wraps it (writing into the last column
/// leaves some terminals with a pending wrap). Parts are dropped least-important first,
/// and only when even the essential parts do not fit is the text cut, ending in `…`.
package enum StatusLine {
    /// One piece of the line: its text, how important it is (0 = essential), and its colour.
    struct Part {
        var text: String
        var priority: Int
        var style: Style = .plain
    }

    /// The ANSI colours the line uses.
    enum Style: String {
        case plain = ""
        case bold = "\u{1B}[1m"
        case green = "\u{1B}[32m"
        case yellow = "\u{1B}[33m"
        case red = "\u{1B}[31m"
        case cyan = "\u{1B}[36m"
        case dim = "\u{1B}[2m"
    }

    static let separator = "  "

    /// The line for `state`; `width` is the terminal's column count, or nil for no limit.
    /// `now`, for a countdown, is measured against `retryDeadline` by the caller and passed as `retryingIn`.
    package static func render(_ state: TrackingStatus, width: Int?, options: RenderOptions) -> String {
        let parts = parts(for: state, options: options)
        let fitted = fit(parts, width: width)
        return paint(fitted, color: options.color, dimAll: { if case .stale = state { true } else { false } }())
    }

    /// The parts for each state, most important first in priority, in display order.
    static func parts(for state: TrackingStatus, options: RenderOptions) -> [Part] {
        // Every text from outside (gpsd's messages, file names) is made safe for the terminal.
        unsafeParts(for: state, options: options).map { part in
            var part = part
            part.text = Terminal.safe(part.text)
            return part
        }
    }

    private static func unsafeParts(for state: TrackingStatus, options: RenderOptions) -> [Part] {
        switch state {
        case .starting:
            return [Part(text: options.startingMessage, priority: 0, style: .dim)]
        case .waitingForAuthorization:
            return [Part(text: "waiting for location authorization", priority: 0, style: .yellow),
                    Part(text: "(geotrack auth grant)", priority: 1)]
        case .denied:
            return [Part(text: "location access denied", priority: 0, style: .red),
                    Part(text: "run 'geotrack auth grant' to allow it", priority: 1)]
        case .restricted(let policyPath):
            return [Part(text: "location access restricted by the administrator", priority: 0, style: .red),
                    Part(text: "(\(policyPath))", priority: 1, style: .dim)]
        case .unreachable(let error, let retryingIn):
            var parts = [Part(text: "gpsd unreachable", priority: 0, style: .red)]
            if let retryingIn {
                let seconds = max(0, Int((Double(retryingIn.components.seconds)
                    + Double(retryingIn.components.attoseconds) / 1e18).rounded(.up)))
                parts.append(Part(text: "retrying in \(seconds)s", priority: 0, style: .yellow))
            }
            parts.append(Part(text: error?.message ?? options.sourceName, priority: 2, style: .dim))
            return parts
        case .noReceiver:
            return [Part(text: "no GPS receiver attached to gpsd", priority: 0, style: .yellow),
                    Part(text: "(gpsdctl add /dev/ttyUSB0)", priority: 1, style: .dim)]
        case .searching(let seen, let used):
            return [Part(text: "searching", priority: 0, style: .cyan),
                    Part(text: "satellites: \(seen) seen, \(used) used", priority: 0)]
        case .fix(let location, let heading):
            return fixParts(location, heading: heading, options: options, stale: false)
        case .stale(let location?):
            return fixParts(location, heading: nil, options: options, stale: true)
        case .stale(nil):
            return [Part(text: "STALE", priority: 0, style: .yellow), Part(text: "no recent fix", priority: 0)]
        case .finished:
            return [Part(text: "end of " + options.sourceName, priority: 0, style: .dim)]
        case .failed(let error):
            return [Part(text: error.message, priority: 0, style: .red)]
        }
    }

    static func fixParts(_ location: Location, heading: Heading?, options: RenderOptions, stale: Bool) -> [Part] {
        let mode = location.gnss.fixMode
        var parts: [Part] = []
        if stale {
            parts.append(Part(text: "STALE", priority: 0, style: .yellow))
        }
        parts.append(Part(text: mode == .threeD ? "3D" : "2D", priority: 0, style: mode == .threeD ? .green : .yellow))
        parts.append(Part(text: options.format.format(location.coordinate), priority: 0, style: .bold))
        if let accuracy = location.horizontalAccuracy {
            parts.append(Part(text: "±" + options.units.length(accuracy), priority: 1))
        }
        // A location has an altitude only for a 3D fix.
        if let altitude = location.altitude ?? location.ellipsoidalAltitude {
            parts.append(Part(text: "alt " + options.units.length(altitude), priority: 3))
        }
        if let speed = location.speed {
            parts.append(Part(text: options.units.speed(speed), priority: 2))
        }
        if let heading {
            parts.append(Part(text: CompassPoint.bearing(heading.bestHeading), priority: 4))
        }
        if let used = location.gnss.satellitesUsed {
            parts.append(Part(text: "\(used) sats", priority: 5))
        }
        parts.append(Part(text: utcTime(location.timestamp), priority: 6, style: .dim))
        return parts
    }

    /// Drops the least important parts until the line fits, then cuts what is left if it must.
    static func fit(_ parts: [Part], width: Int?) -> [Part] {
        guard let width else { return parts }
        let limit = max(1, width - 1)
        var kept = parts
        while columns(kept) > limit, let worst = kept.map(\.priority).max(), worst > 0 {
            // Drop the last part of the worst priority so the line keeps its order.
            if let index = kept.lastIndex(where: { $0.priority == worst }) {
                kept.remove(at: index)
            }
        }
        guard columns(kept) > limit else { return kept }
        // Even the essentials are too wide: cut the text and mark the cut.
        var result: [Part] = []
        var used = 0
        for (index, part) in kept.enumerated() {
            let gap = index == 0 ? 0 : separator.count
            let room = limit - used - gap
            if room <= 0 { break }
            let count = part.text.unicodeScalars.count
            if count <= room && !(index < kept.count - 1 && count == room) {
                result.append(part)
                used += gap + count
            } else {
                let cut = String(String.UnicodeScalarView(part.text.unicodeScalars.prefix(max(0, room - 1)))) + "…"
                result.append(Part(text: cut, priority: part.priority, style: part.style))
                break
            }
        }
        return result
    }

    /// The columns a line of parts takes: every scalar the renderer uses is one column wide,
    /// and counting scalars is much cheaper than counting grapheme clusters.
    static func columns(_ parts: [Part]) -> Int {
        parts.reduce(0) { $0 + $1.text.unicodeScalars.count } + max(0, parts.count - 1) * separator.count
    }

    static func paint(_ parts: [Part], color: Bool, dimAll: Bool) -> String {
        guard color else { return parts.map(\.text).joined(separator: separator) }
        let reset = "\u{1B}[0m"
        return parts.map { part in
            let style = dimAll && part.style != .yellow ? Style.dim : part.style
            return style == .plain ? part.text : style.rawValue + part.text + reset
        }.joined(separator: separator)
    }

    /// `HH:MM:SSZ` in UTC, without a formatter (this runs for every fix).
    package static func utcTime(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return Decimal.padded(Int(parts.tm_hour), digits: 2) + ":" + Decimal.padded(Int(parts.tm_min), digits: 2) + ":"
            + Decimal.padded(Int(parts.tm_sec), digits: 2) + "Z"
    }
}
