import FoundationEssentials
import GPSReports
import OwnTracks
#if canImport(Glibc)
import Glibc
#endif

/// The fleet view's lines: a header, then one line per device with its position, accuracy,
/// speed, course, regions and the age of its last fix, marked stale past a threshold.
package enum FleetScreen {
    /// The header: where the view listens, how many devices it knows, and, while not
    /// connected, why when it is known. In `width` columns it drops "retrying" first, then what
    /// to check, the device count, the broker's address, never the reason (the status line's
    /// fitting). A problem reads "what happened: what to check", as the MQTT client says it.
    package static func header(broker: String, connected: Bool, devices: Int, problem: String? = nil,
                               width: Int? = nil) -> String {
        StatusLine.paint(StatusLine.fit(headerParts(broker: broker, connected: connected, devices: devices, problem: problem),
                                        width: width), color: false, dimAll: false)
    }

    static func headerParts(broker: String, connected: Bool, devices: Int, problem: String?) -> [StatusLine.Part] {
        // Connected, the address is what the header is about: it is cut, never dropped.
        var parts = [StatusLine.Part(text: "fleet at " + Terminal.safe(broker), priority: connected ? 0 : 1),
                     StatusLine.Part(text: "\(devices) device\(devices == 1 ? "" : "s")", priority: 2, joiner: " · ")]
        if !connected {
            var reason = problem.map(Terminal.safe)
            var advice: String?
            if let text = reason, let split = text.firstRange(of: ": ") {
                reason = String(text[..<split.lowerBound])
                advice = String(text[split.upperBound...])
            }
            parts.append(StatusLine.Part(text: "not connected" + (reason.map { ": " + $0 } ?? ""), priority: 0, joiner: " · "))
            if let advice {
                parts.append(StatusLine.Part(text: advice, priority: 3, joiner: ": "))
            }
            parts.append(StatusLine.Part(text: "retrying", priority: 4, joiner: ", "))
        }
        return parts
    }

    /// One device's line; every string from the broker is made safe for the terminal.
    package static func line(_ device: FleetRoster.Device, now: Date, staleAfter: Double, options: RenderOptions) -> String {
        var parts = [Terminal.safe(device.name)]
        guard let location = device.location else {
            // A device that sends only transitions (OwnTracks' region-only setups) is shown by
            // its regions and its last crossing, not as if nothing were known.
            guard let transition = device.lastTransition else {
                parts.append(device.gone ? "offline, no position yet" : "no position yet")
                return parts.joined(separator: "  ")
            }
            if let tid = transition.trackerID { parts.append(Terminal.safe(String(tid.prefix(2)))) }
            if !device.regions.isEmpty {
                parts.append("[" + device.regions.sorted().map(Terminal.safe).joined(separator: ", ") + "]")
            }
            var text = (transition.event == .enter ? "entered " : "left ") + Terminal.safe(transition.region) + " "
                + AgeText.text(now.timeIntervalSince1970 - Double(transition.timestamp)) + " ago"
            if device.gone { text += ", offline" }
            parts.append(text)
            return parts.joined(separator: "  ")
        }
        if let tid = location.trackerID { parts.append(Terminal.safe(String(tid.prefix(2)))) }
        if let coordinate = Coordinate(latitude: location.latitude, longitude: location.longitude) {
            parts.append(options.format.format(coordinate))
        }
        if let accuracy = location.accuracy { parts.append("±" + options.units.accuracy(Double(accuracy))) }
        if let velocity = location.velocity { parts.append(options.units.speed(Double(velocity) / 3.6)) }
        if let course = location.course { parts.append("\(course)°") }
        if !device.regions.isEmpty {
            parts.append("[" + device.regions.sorted().map(Terminal.safe).joined(separator: ", ") + "]")
        }
        let age = now.timeIntervalSince1970 - Double(location.timestamp)
        var ageText = AgeText.text(age) + " ago"
        if age > staleAfter { ageText += ", stale" }
        if device.gone { ageText += ", offline" }
        parts.append(ageText)
        return parts.joined(separator: "  ")
    }

    /// How long until some device's line changes by itself, in seconds: its age reads
    /// differently, or it turns stale. `nil` when nothing will change without a message.
    package static func secondsUntilChange(_ roster: FleetRoster, now: Date, staleAfter: Double) -> Double? {
        var soonest: Double?
        for device in roster.devices.values {
            guard let location = device.location else { continue }
            let age = now.timeIntervalSince1970 - Double(location.timestamp)
            var candidates = [AgeText.secondsUntilChange(age)]
            if age <= staleAfter { candidates.append(staleAfter - age) }
            for case let seconds? in candidates where seconds < soonest ?? .infinity {
                soonest = seconds
            }
        }
        return soonest
    }

    /// Whether a device's line is drawn dim: stale or offline.
    package static func isFaded(_ device: FleetRoster.Device, now: Date, staleAfter: Double) -> Bool {
        guard let location = device.location else { return true }
        return device.gone || now.timeIntervalSince1970 - Double(location.timestamp) > staleAfter
    }

    /// The whole view for a terminal of `width` × `height`: each line cut to fit, and the devices
    /// that do not fit counted.
    package static func lines(_ roster: FleetRoster, broker: String, connected: Bool, problem: String? = nil, now: Date,
                              staleAfter: Double, options: RenderOptions, width: Int?, height: Int?) -> [String] {
        let devices = roster.sorted
        var lines = [header(broker: broker, connected: connected, devices: devices.count, problem: problem, width: width)]
        if devices.isEmpty { lines.append("waiting for devices on owntracks/+/+ …") }
        let room = height.map { max(1, $0 - 2) } ?? Int.max
        for (index, device) in devices.enumerated() {
            if index >= room - 1, devices.count > room {
                lines.append("… \(devices.count - index) more")
                break
            }
            var text = line(device, now: now, staleAfter: staleAfter, options: options)
            if options.color, isFaded(device, now: now, staleAfter: staleAfter) { text = ANSI.Style.dim.rawValue + text + ANSI.reset }
            lines.append(text)
        }
        guard let width else { return lines }
        return lines.map { fit($0, width: width - 1) }
    }

    /// Cuts a line to `width` visible columns (escape sequences do not count), ending with `…`.
    /// Columns as a terminal draws them: a double-width name (CJK, most emoji) takes two, so a
    /// line never wraps and the in-place redraw stays where it was.
    static func fit(_ line: String, width: Int) -> String {
        let width = max(1, width)
        guard visibleLength(line) > width else { return line }
        var visible = 0
        var result = ""
        var inEscape = false
        for character in line {
            if character == ANSI.escape { inEscape = true }
            if inEscape {
                result.append(character)
                if character.isLetter { inEscape = false }
                continue
            }
            let columns = Self.columns(character)
            if visible + columns > width - 1 { break }
            result.append(character)
            visible += columns
        }
        return result + "…" + (line.contains(ANSI.escape) ? ANSI.reset : "")
    }

    /// Columns a line takes, escape sequences left out.
    static func visibleLength(_ line: String) -> Int {
        var count = 0
        var inEscape = false
        for character in line {
            if character == ANSI.escape { inEscape = true }
            if inEscape {
                if character.isLetter { inEscape = false }
                continue
            }
            count += columns(character)
        }
        return count
    }

    /// The columns a terminal gives a character: 2 for East Asian wide and fullwidth ones and
    /// for emoji shown as pictures, 0 for a lone combining mark or control, else 1.
    static func columns(_ character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        let value = first.value
        if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
        if first.properties.generalCategory == .nonspacingMark || first.properties.generalCategory == .enclosingMark { return 0 }
        if first.properties.isEmojiPresentation || character.unicodeScalars.contains("\u{FE0F}") && first.properties.isEmoji {
            return 2
        }
        let wide: [ClosedRange<UInt32>] = [
            0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD,
        ]
        return wide.contains { $0.contains(value) } ? 2 : 1
    }
}
