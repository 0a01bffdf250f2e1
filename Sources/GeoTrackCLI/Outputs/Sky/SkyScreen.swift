import FoundationEssentials
import GPSReports
import GeoTrackService
import LocationKit
#if canImport(Glibc)
import Glibc
#endif

/// What `geotrack sky` shows, and its layout: the fix and the receiver on the left; the sky plot
/// and the satellite table on the right (below each other in a narrow window).
///
/// It keeps the latest of what the service told (the status with its location and heading, the
/// last sky view, gpsd's receivers, the last event) and lays it out for a window's size. What to
/// show is the service's decision, as for the status line: this only draws it.
package struct SkyScreen: Sendable {
    /// What the service last said.
    package private(set) var status: TrackingStatus = .starting
    /// The satellites and dilutions shown: those of the receiver whose fix is shown, when gpsd
    /// has several and it named them; else the latest.
    package var sky: SkyView? {
        let device: String? = switch status {
        case .fix(let location, _), .stale(let location?): location.gnss.device
        case .finished: finalLocation?.gnss.device
        default: nil
        }
        // Another receiver's latest is not this one's, even before this one has sent any.
        guard let device, let latestDevice = latestSky?.device, latestDevice != device else { return latestSky }
        return skiesByDevice[device]
    }
    /// The latest sky view, whichever receiver sent it.
    private var latestSky: SkyView?
    /// The latest sky view of each receiver that named itself (a few: gpsd lists its receivers).
    private var skiesByDevice: [String: SkyView] = [:]
    /// The receivers gpsd lists.
    package private(set) var devices: [Device] = []
    /// The latest event (a region, a visit, a reconnection).
    package private(set) var lastEvent: TrackingEvent?
    /// The last location of a source that finished, and the heading shown with it.
    private var finalLocation: Location?
    private var finalHeading: Heading?
    private let options: RenderOptions
    private let replayedFile: String?

    /// Columns of the left column (labels and values), and where the right one starts.
    static let leftWidth = 39
    static let rightStart = 40
    /// Narrower than this, the columns are stacked.
    static let twoColumnMinimum = 80
    static let labelWidth = 10

    /// Creates an empty screen; `replayedFile` names the log when the source is a replay.
    package init(options: RenderOptions, replayedFile: String? = nil) {
        self.options = options
        self.replayedFile = replayedFile
    }

    /// Takes in one update from the service.
    package mutating func apply(_ update: TrackingUpdate) {
        switch update {
        case .status(let status):
            // A replay's last fix stays on its final screen, marked as the end; after any other
            // state (gpsd lost, searching) an old position is not shown as if it were current.
            if case .finished = status {
                switch self.status {
                case .fix(let location, let heading): (finalLocation, finalHeading) = (location, heading)
                case .stale(let location?): (finalLocation, finalHeading) = (location, nil)
                default: break
                }
            }
            switch status {
            case .unreachable, .noReceiver:
                // The satellites and receivers of a gpsd that is gone, or of a receiver it no
                // longer has, are not shown as if they were being tracked (cgps leaves when gpsd
                // does): gpsd tells them afresh when it is back, or the receiver is.
                latestSky = nil
                skiesByDevice = [:]
                if case .unreachable = status { devices = [] }
            default:
                break
            }
            self.status = status
        case .report(.sky(let sky)):
            latestSky = sky
            if let device = sky.device {
                // A peer naming ever new receivers cannot grow this unbounded.
                if skiesByDevice[device] == nil, skiesByDevice.count >= 16 { skiesByDevice.removeAll() }
                skiesByDevice[device] = sky
            }
        case .report(.devices(let devices)): self.devices = devices
        case .report(.deviceAdded(let device)):
            devices.removeAll { $0.path == device.path }
            devices.append(device)
        case .report(.deviceRemoved(let device)): devices.removeAll { $0.path == device.path }
        case .event(let event): lastEvent = event
        case .report, .location: break
        }
    }

    /// The screen as lines, none wider than `width - 1` columns; at most `height` of them, or
    /// as many as the satellites need when `height` is nil (a snapshot for a file or a pipe).
    /// `hint` is shown at the right of the title (how to quit).
    package func render(width: Int, height: Int?, color: Bool, hint: String? = nil) -> [String] {
        let usable = max(10, width - 1)
        let twoColumns = width >= Self.twoColumnMinimum
        let fix = fixLines(valueWidth: (twoColumns ? Self.leftWidth : usable) - Self.labelWidth)
        let satellites = sky?.listed ?? []

        // The plot: as tall as the window allows, square in dots, with room for its legend.
        let rightWidth = twoColumns ? usable - Self.rightStart : usable
        let available = height.map { $0 - 1 - (twoColumns ? 0 : fix.count) } ?? 21
        var plotRows = min(16, (rightWidth - Self.legendWidth - 1) / 2, max(5, (available - 1) / 2))
        if let height, twoColumns { plotRows = min(plotRows, max(5, height - 4)) }
        // One column with no room for the plot and a line of the table under it: the table, or
        // what it says of the satellites it cannot list, rather than a plot cut in half.
        if height != nil, !twoColumns, available < plotRows + 2 { plotRows = 0 }
        let tableRows = height == nil ? satellites.count + 1 : max(0, available - plotRows)
        let totalHeight = height ?? (1 + (twoColumns ? max(fix.count, plotRows + tableRows) : fix.count + plotRows + tableRows))

        var canvas = TextCanvas(width: usable, height: totalHeight)
        let title = "geotrack sky · " + options.sourceName
        let titleWidth = canvas.put(title, row: 0, column: 0, style: .bold, limit: usable - (hint.map { $0.count + 2 } ?? 0))
        if let hint, titleWidth + hint.count + 2 <= usable {
            canvas.put(hint, row: 0, column: usable - hint.count, style: .dim)
        }
        for (index, line) in fix.enumerated() {
            canvas.put(line.label, row: 1 + index, column: 0, style: .dim)
            canvas.put(line.value, row: 1 + index, column: Self.labelWidth, style: line.style,
                       limit: (twoColumns ? Self.leftWidth : usable) - Self.labelWidth)
        }
        let top = twoColumns ? 1 : 1 + fix.count
        let left = twoColumns ? Self.rightStart : 0
        let limit = usable - left
        if plotRows > 0 {
            SkyPlot.draw(satellites, on: &canvas, top: top, left: left, rows: plotRows)
            drawLegend(on: &canvas, top: top, left: left + SkyPlot.columns(rows: plotRows) + 1, limit: limit)
        }
        SatelliteTable.draw(satellites, on: &canvas, top: top + plotRows, left: left, rows: tableRows, limit: limit)
        return canvas.lines(color: color)
    }

    static let legendWidth = 14

    private func drawLegend(on canvas: inout TextCanvas, top: Int, left: Int, limit: Int) {
        // No sky view at all (a log without GSV, gpsd before its first SKY) says nothing of the
        // satellites, and a sky that knows only how many are used (a replayed GPX track) nothing
        // of those seen, nor so of those not used: a dash, not a 0 beside a 3D fix.
        let used = sky.map { String($0.used) } ?? "-"
        let seen = sky?.seen
        let notUsed = seen.map { max(0, $0 - (sky?.listed.filter(\.used).count ?? 0)) }
        canvas.put(SkyPlot.usedMark, row: top, column: left, style: .green)
        canvas.put(" used     \(used)", row: top, column: left + 1)
        canvas.put(SkyPlot.unusedMark + " not used " + (notUsed.map(String.init) ?? "-"), row: top + 1, column: left)
        canvas.put("  seen     " + (seen.map(String.init) ?? "-"), row: top + 2, column: left, style: .dim)
    }

    /// One labelled line of the fix panel.
    struct Line {
        var label: String
        var value: String
        var style: ANSI.Style = .plain
    }

    /// The fix, its errors and the receiver, a line each; a state without a fix takes as many
    /// lines of `valueWidth` columns as its reason needs.
    func fixLines(valueWidth: Int) -> [Line] {
        var lines: [Line] = []
        let location: Location?
        let heading: Heading?
        switch status {
        case .fix(let current, let shown):
            location = current
            heading = shown
            lines.append(Line(label: "Status", value: Self.fixKind(current), style: current.gnss.fixMode == .threeD ? .green : .yellow))
        case .stale(let last):
            location = last
            heading = nil
            lines.append(Line(label: "Status", value: "STALE: no recent fix", style: .yellow))
        case .finished:
            location = finalLocation
            heading = finalHeading
            // The kind of the last fix stays said: a snapshot (a pipe, TERM=dumb) shows only this screen.
            // On a line of its own when both do not fit: "dead reckoning" and "RTK float" are long.
            let last = finalLocation.map { "last: " + Self.fixKind($0) }
            if let last, "ended, ".count + last.count > valueWidth {
                lines.append(Line(label: "Status", value: "ended,", style: .dim))
                lines.append(Line(label: "", value: last, style: .dim))
            } else {
                lines.append(Line(label: "Status", value: "ended" + (last.map { ", " + $0 } ?? ""), style: .dim))
            }
        default:
            location = nil
            heading = nil
            // The status line's own words and the colour of its leading part, so a state looks
            // the same in both views; wrapped rather than cut, so that the reason is never lost.
            // This screen is drawn when something changes, not every second: it shows no countdown.
            var shown = status
            if case .unreachable(let error, _) = status { shown = .unreachable(error, retryingIn: nil) }
            let parts = StatusLine.parts(for: shown, options: plainOptions)
            for (index, row) in StatusLine.wrap(parts, width: valueWidth + 1).enumerated() {
                lines.append(Line(label: index == 0 ? "Status" : "", value: StatusLine.paint(row, color: false, dimAll: false),
                                  style: parts.first?.style ?? .plain))
            }
        }
        let dash = "-"
        let units = options.units
        let fix = location?.fix
        // gpsd's error estimates (95%) follow what they qualify, in its unit.
        func with(_ text: String?, error: String?) -> String {
            guard let text else { return dash }
            return error.map { text + " ±" + $0 } ?? text
        }
        // A value too long for the column (a 10 Hz time with its error, a survey fix's seconds
        // of arc) continues on the line below rather than being cut.
        func add(_ label: String, _ first: String, _ second: String?, joiner: String = "  ", style: ANSI.Style = .plain) {
            if let second, first.count + joiner.count + second.count > valueWidth {
                lines.append(Line(label: label, value: first, style: style))
                lines.append(Line(label: "", value: second, style: style))
            } else {
                lines.append(Line(label: label, value: second.map { first + joiner + $0 } ?? first, style: style))
            }
        }
        if let location {
            add("Time", Self.utcDateTime(location.timestamp), fix?.ept.map { "±" + NumberText.fixed($0, decimals: 3) + " s" }, joiner: " ")
            let format = options.format, accuracy = location.horizontalAccuracy
            let extra = format.extraDecimals(for: accuracy)
            add("Position", format.format(location.coordinate.latitude, positive: "N", negative: "S", extraDecimals: extra),
                format.format(location.coordinate.longitude, positive: "E", negative: "W", extraDecimals: extra), joiner: " ", style: .bold)
        } else {
            lines.append(Line(label: "Time", value: dash))
            lines.append(Line(label: "Position", value: dash))
        }
        // Heights with the digits their vertical accuracy warrants.
        var altitudes: [String] = []
        if let msl = location?.altitude { altitudes.append(units.height(msl, accuracy: location?.verticalAccuracy) + " MSL") }
        if let hae = location?.ellipsoidalAltitude { altitudes.append(units.height(hae, accuracy: location?.verticalAccuracy) + " HAE") }
        add("Altitude", altitudes.first ?? dash, altitudes.count > 1 ? altitudes[1] : nil)
        lines.append(Line(label: "Speed", value: with(location?.speed.map(units.speed), error: fix?.eps.map(units.speed))))
        lines.append(Line(label: "Climb", value: with(fix?.climb.map { units.climbRate($0, signed: true) },
                                                      error: fix?.epc.map { units.climbRate($0, signed: false) })))
        lines.append(Line(label: "Course", value: with(location?.course.map { CompassPoint.bearing($0) + " true" },
                                                       error: fix?.epd.map { NumberText.fixed($0, decimals: 0) + "°" })))
        lines.append(Line(label: "Heading", value: heading.map(Self.describe) ?? dash))

        let dops = [("H", sky?.hdop), ("V", sky?.vdop), ("P", sky?.pdop), ("T", sky?.tdop), ("G", sky?.gdop)]
            .compactMap { name, value in value.map { "\(name) " + NumberText.fixed($0, decimals: 2) } }
        lines.append(Line(label: "DOP", value: dops.isEmpty ? dash : dops.prefix(3).joined(separator: "  ")))
        if dops.count > 3 { lines.append(Line(label: "", value: dops.dropFirst(3).joined(separator: "  "))) }

        let position = [("x", fix?.epx), ("y", fix?.epy), ("v", fix?.epv)]
            .compactMap { name, value in value.map { "\(name) ±" + units.accuracy($0) } }
        add("Error", position.isEmpty ? dash : position.prefix(2).joined(separator: "  "), position.count > 2 ? position[2] : nil)
        // Where the corrections of a DGPS or RTK fix come from, and how old they are.
        if let age = fix?.dgpsAge {
            lines.append(Line(label: "DGPS", value: "age " + NumberText.fixed(age, decimals: 1) + " s"
                                + (fix?.dgpsStation.map { ", station \($0)" } ?? "")))
        }

        lines.append(contentsOf: receiverLines(device: location?.gnss.device ?? sky?.device))
        if let sky {
            lines.append(Line(label: "Sats", value: "\(sky.used) used" + (sky.seen.map { " of \($0) seen" } ?? "")))
        }
        if let lastEvent {
            lines.append(Line(label: "Event", value: EventLine.render(lastEvent, options: plainOptions)))
        }
        return lines
    }

    private func receiverLines(device path: String?) -> [Line] {
        let device = devices.first { $0.path == path } ?? devices.first { $0.activated != nil } ?? devices.first
        guard let device else {
            if let replayedFile { return [Line(label: "Receiver", value: replayedFile + " (replay)")] }
            return [Line(label: "Receiver", value: path ?? "-")]
        }
        var lines = [Line(label: "Receiver", value: device.path)]
        if let driver = device.driver { lines.append(Line(label: "", value: driver + (device.subtype.map { " " + $0 } ?? ""))) }
        var details: [String] = []
        if let bps = device.bitsPerSecond { details.append("\(bps) bps") }
        if let cycle = device.cycle {
            let text = cycle == cycle.rounded() ? String(Int(cycle)) : NumberText.fixed(cycle, decimals: 2)
            details.append("cycle \(text) s")
        }
        if !details.isEmpty { lines.append(Line(label: "", value: details.joined(separator: ", "))) }
        return lines
    }

    private var plainOptions: RenderOptions {
        var plain = options
        plain.color = false
        return plain
    }

    /// "3D fix", "2D fix, DGPS": the mode and, when it says more than GPS, the status.
    private static func fixKind(_ location: Location) -> String {
        var text = "\(location.gnss.fixMode) fix"
        if let kind = location.gnss.status, kind != .unknown, kind != .gps { text += ", \(kind)" }
        return text
    }

    private static func describe(_ heading: Heading) -> String {
        let source = switch heading.source {
        case .sensor(let name): name ?? "sensor"
        // "course", not "course over ground": the line fits the 80-column layout's left column.
        case .courseOverGround: "course"
        }
        return CompassPoint.bearing(heading.bestHeading) + (heading.trueHeading == nil ? " magnetic" : " true")
            + " (\(source))"
    }

    /// `2026-11-23 12:00:01Z`.
    static func utcDateTime(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(Int(parts.tm_year) + 1900) + "-" + NumberText.padded(Int(parts.tm_mon) + 1, digits: 2) + "-"
            + NumberText.padded(Int(parts.tm_mday), digits: 2) + " " + UTCText.fixTimeOfDay(date)
    }
}
