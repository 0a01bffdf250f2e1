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
/// leaves some terminals with a pending wrap). Parts are shortened or dropped least-important
/// first, and only when even the essential parts do not fit is the text cut, ending in `…`.
///
/// What goes first when the line is narrow (priorities, 0 = never dropped):
/// - gpsd unreachable: the countdown (6), then the command that may help (5), the publishing
///   backlog's reason (3), its count (2), the hint (2), the address (1); the state and its
///   reason stay (`gpsd unreachable: connection refused at localhost:2947 (is gpsd running?)` at
///   80 columns).
/// - a fix: the time (8), satellites (7), heading (6), altitude (5), speed (4), the publishing
///   backlog's reason (3), its count (2), the accuracy (1); the mode and the coordinates stay.
///
/// The publishing backlog (`· 55 queued, broker unreachable`, only while a broker cannot take
/// what waits) sits where its importance puts it: after a gpsd problem's hint or a fix's
/// accuracy, before the countdown or the fix's details. Short of room it keeps its count
/// (`· 55 queued`), so that a fix on an 80-column terminal still says its messages wait.
package enum StatusLine {
    /// One piece of the line: its text, how important it is (0 = essential), its colour, what
    /// joins it to the part before, and a shorter text to try, at its own priority, before the
    /// part is dropped.
    struct Part {
        var text: String
        var priority: Int
        var style: ANSI.Style = .plain
        var joiner: String = StatusLine.separator
        var shorter: (text: String, priority: Int)?
    }

    static let separator = "  "
    /// How important the publishing backlog's reason is: after a gpsd problem's reason, address
    /// and hint and a fix's accuracy; before the command that may help, the countdown, and a
    /// fix's speed, altitude, heading, satellites and time.
    static let publishingPriority = 3
    /// How important the backlog's count is, once its reason has given way: it goes before the
    /// hint it follows, and before the accuracy.
    static let publishingCountPriority = 2

    /// The line for `state`; `width` is the terminal's column count, or nil for no limit.
    /// `now`, for a countdown, is measured against `retryDeadline` by the caller and passed as `retryingIn`.
    /// `publishing`, when messages wait for a broker that cannot take them, follows the state.
    package static func render(_ state: TrackingStatus, publishing: PublishingStatus? = nil, width: Int?,
                               options: RenderOptions) -> String {
        var parts = parts(for: state, options: options)
        if let publishing {
            // Placed, as kept, by importance: after what matters more (the state, its reason, the
            // position), before what matters less (the countdown, the fix's details).
            let part = Part(text: publishing.text, priority: publishingCountPriority, style: .yellow, joiner: " · ",
                            shorter: (publishing.shortText, publishingPriority))
            parts.insert(part, at: parts.firstIndex { $0.priority > publishingPriority } ?? parts.endIndex)
        }
        let fitted = fit(parts, width: width)
        return paint(fitted, color: options.color, dimAll: { if case .stale = state { true } else { false } }())
    }

    /// The parts for each state, most important first in priority, in display order.
    static func parts(for state: TrackingStatus, options: RenderOptions) -> [Part] {
        // Every text from outside (gpsd's messages, file names) is made safe for the terminal.
        unsafeParts(for: state, options: options).map { part in
            var part = part
            part.text = Terminal.safe(part.text)
            part.shorter = part.shorter.map { (Terminal.safe($0.text), $0.priority) }
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
            var parts = unreachableParts(error, options: options)
            if let retryingIn {
                // Clamped before the conversion, which would trap beyond Int's range.
                let seconds = Int(min(max(0, retryingIn.inSeconds.rounded(.up)), 86_400 * 365))
                parts.append(Part(text: "retrying in \(seconds)s", priority: 6, style: .yellow))
            }
            return parts
        case .noReceiver:
            // With --device, gpsd may well have receivers, only not that one: the advice differs.
            if let device = options.device {
                return [Part(text: "gpsd has no receiver " + Terminal.safe(device), priority: 0, style: .yellow),
                        Part(text: "(geotrack devices lists those it has)", priority: 1, style: .dim)]
            }
            return [Part(text: "no GPS receiver attached to gpsd", priority: 0, style: .yellow),
                    Part(text: "(gpsdctl add /dev/ttyUSB0)", priority: 1, style: .dim)]
        case .searching(let seen, let used):
            // Without a count of those seen (a replayed GPX track), only the count used is said.
            return [Part(text: "searching", priority: 0, style: .cyan),
                    Part(text: "satellites: " + (seen.map { "\($0) seen, " } ?? "") + "\(used) used", priority: 0)]
        case .fix(let location, let heading):
            return fixParts(location, heading: heading, options: options, stale: false)
        case .stale(let location?):
            return fixParts(location, heading: nil, options: options, stale: true)
        case .stale(nil):
            return [Part(text: "STALE", priority: 0, style: .yellow), Part(text: "no recent fix", priority: 0)]
        case .finished:
            return [Part(text: "end of " + options.sourceName, priority: 0, style: .dim)]
        case .failed(let error):
            return [Part(text: error.advisedMessage, priority: 0, style: .red)]
        }
    }

    /// Why gpsd cannot be reached, shortest form first: the reason is essential, then where,
    /// then what to check, then the command that may help.
    static func unreachableParts(_ error: SourceError?, options: RenderOptions) -> [Part] {
        guard let error else {
            return [Part(text: "gpsd unreachable", priority: 0, style: .red),
                    Part(text: options.sourceName, priority: 2, style: .dim)]
        }
        // Two parts, so that a panel narrower than both puts the reason on a line of its own.
        // An error without a short form: its whole message is the reason.
        var parts = [Part(text: "gpsd unreachable:", priority: 0, style: .red),
                     Part(text: error.reason ?? error.advisedMessage, priority: 0, style: .red, joiner: " ")]
        guard error.reason != nil else { return parts }
        if let address = error.address {
            parts.append(Part(text: "at " + address, priority: 1, joiner: " "))
        }
        if let hint = error.hint {
            var part = Part(text: "(" + hint + ")", priority: 2, joiner: " ")
            if let remedy = error.remedy {
                part.shorter = (part.text, 5)
                part.text = "(" + hint + " " + remedy + ")"
            }
            parts.append(part)
        } else if let remedy = error.remedy {
            parts.append(Part(text: "(" + remedy + ")", priority: 5, joiner: " "))
        }
        return parts
    }

    static func fixParts(_ location: Location, heading: Heading?, options: RenderOptions, stale: Bool) -> [Part] {
        let mode = location.gnss.fixMode
        var parts: [Part] = []
        if stale {
            parts.append(Part(text: "STALE", priority: 0, style: .yellow))
        }
        parts.append(Part(text: mode == .threeD ? "3D" : "2D", priority: 0, style: mode == .threeD ? .green : .yellow))
        // The kind of solution when it is more than a plain GNSS fix (cgps's "3D RTK FIX"): what
        // a survey or marine user reads first.
        if let kind = location.gnss.status.flatMap(fixKind) {
            parts.append(Part(text: kind.text, priority: 3, style: mode == .threeD ? .green : .yellow, joiner: " ",
                              shorter: kind.shorter.map { ($0, 7) }))
        }
        // The coordinates and heights with the digits the fix's accuracy warrants.
        parts.append(Part(text: options.format.format(location.coordinate, accuracy: location.horizontalAccuracy),
                          priority: 0, style: .bold))
        if let accuracy = location.horizontalAccuracy {
            parts.append(Part(text: "±" + options.units.accuracy(accuracy), priority: 1))
        }
        // A location has an altitude only for a 3D fix.
        if let altitude = location.altitude ?? location.ellipsoidalAltitude {
            parts.append(Part(text: "alt " + options.units.height(altitude, accuracy: location.verticalAccuracy), priority: 5))
        }
        if let speed = location.speed {
            parts.append(Part(text: options.units.speed(speed), priority: 4))
        }
        if let heading {
            parts.append(Part(text: CompassPoint.heading(heading), priority: 6))
        }
        if let used = location.gnss.satellitesUsed {
            parts.append(Part(text: "\(used) sats", priority: 7))
        }
        parts.append(Part(text: UTCText.fixTimeOfDay(location.timestamp), priority: 8, style: .dim))
        return parts
    }

    /// The status line's words for a kind of solution, with a shorter form for narrow
    /// windows; nil for a plain GNSS fix or none known.
    static func fixKind(_ status: FixStatus) -> (text: String, shorter: String?)? {
        switch status {
        case .unknown, .gps: nil
        case .dgps: ("DGPS", nil)
        case .rtkFixed: ("RTK fixed", "RTK")
        case .rtkFloat: ("RTK float", "RTK flt")
        case .deadReckoning: ("dead reckoning", "DR")
        case .gnssDeadReckoning: ("GNSS+DR", nil)
        case .timeOnly: ("time only", nil)
        case .simulated: ("simulated", "sim")
        case .pps: ("PPS", nil)
        }
    }

    /// Shortens or drops the least important parts until the line fits, then cuts what is
    /// left if it must.
    static func fit(_ parts: [Part], width: Int?) -> [Part] {
        guard let width else { return parts }
        let limit = max(1, width - 1)
        var kept = parts
        while columns(kept) > limit {
            // A part's rank is when it next gives way: its shorter text's priority while it has
            // one (never below the part's own), else its own.
            let ranks = kept.map { part in part.shorter.map { max($0.priority, part.priority) } ?? part.priority }
            guard let worst = ranks.max(), worst > 0, let index = ranks.lastIndex(of: worst) else { break }
            // The last part of the worst rank gives way, so that the line keeps its order.
            if let shorter = kept[index].shorter, shorter.priority >= kept[index].priority {
                kept[index].text = shorter.text
                kept[index].shorter = nil
            } else {
                kept.remove(at: index)
            }
        }
        guard columns(kept) > limit else { return kept }
        // Even the essentials are too wide: cut the text and mark the cut.
        var result: [Part] = []
        var used = 0
        for (index, part) in kept.enumerated() {
            let gap = index == 0 ? 0 : part.joiner.count
            let room = limit - used - gap
            if room <= 0 { break }
            let count = part.text.unicodeScalars.count
            if count <= room && !(index < kept.count - 1 && count == room) {
                result.append(part)
                used += gap + count
            } else {
                var cut = part
                // A cut after a word does not keep the space before the mark.
                var kept = String.UnicodeScalarView(part.text.unicodeScalars.prefix(max(0, room - 1)))
                while kept.last == " " { kept.removeLast() }
                cut.text = String(kept) + "…"
                result.append(cut)
                break
            }
        }
        return result
    }

    /// Lays parts out on lines of at most `width - 1` columns, for a panel with room for
    /// several: each part on the current line when it fits there, else at the start of the next
    /// (in its shorter text if that is what fits); a part wider than a line on its own is cut.
    static func wrap(_ parts: [Part], width: Int) -> [[Part]] {
        let limit = max(1, width - 1)
        var lines: [[Part]] = []
        var line: [Part] = []
        // A part wider than a row is split at its spaces first, so that its end (the reason
        // after "gpsd unreachable:", the "gpsd" of "no GPS receiver attached to gpsd") goes
        // on the next row instead of being cut; only a word wider than a row is cut.
        for part in parts.flatMap({ Self.split($0, limit: limit) }) {
            var candidate = part
            candidate.shorter = nil
            if !line.isEmpty, columns(line + [candidate]) <= limit {
                line.append(candidate)
                continue
            }
            if let shorter = part.shorter, columns(line + [candidate]) > limit {
                candidate.text = shorter.text
                if !line.isEmpty, columns(line + [candidate]) <= limit {
                    line.append(candidate)
                    continue
                }
            }
            if !line.isEmpty { lines.append(line) }
            line = fit([candidate], width: width)
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// `part` as pieces of at most `limit` columns, cut at spaces (joined by one when on a row
    /// together again); a part that fits, whose shorter text fits, or that has no space to cut
    /// at, stays whole.
    static func split(_ part: Part, limit: Int) -> [Part] {
        guard part.text.unicodeScalars.count > limit,
              (part.shorter?.text.unicodeScalars.count ?? .max) > limit else { return [part] }
        var pieces: [Part] = []
        var rest = Substring(part.text)
        while rest.unicodeScalars.count > limit {
            let head = rest.unicodeScalars.prefix(limit + 1)
            guard let space = head.lastIndex(of: " "), space > rest.startIndex else { break }
            var piece = part
            piece.text = String(rest[..<space])
            piece.shorter = nil
            if !pieces.isEmpty { piece.joiner = " " }
            pieces.append(piece)
            rest = rest[rest.index(after: space)...]
        }
        var last = part
        last.text = String(rest)
        last.shorter = nil
        if !pieces.isEmpty { last.joiner = " " }
        pieces.append(last)
        return pieces
    }

    /// The columns a line of parts takes: every scalar the renderer uses is one column wide,
    /// and counting scalars is much cheaper than counting grapheme clusters.
    static func columns(_ parts: [Part]) -> Int {
        var total = 0
        for (index, part) in parts.enumerated() {
            total += part.text.unicodeScalars.count + (index == 0 ? 0 : part.joiner.unicodeScalars.count)
        }
        return total
    }

    static func paint(_ parts: [Part], color: Bool, dimAll: Bool) -> String {
        let reset = ANSI.reset
        var line = ""
        for (index, part) in parts.enumerated() {
            if index > 0 { line += part.joiner }
            let style = dimAll && part.style != .yellow ? ANSI.Style.dim : part.style
            line += !color || style == .plain ? part.text : style.rawValue + part.text + reset
        }
        return line
    }
}
