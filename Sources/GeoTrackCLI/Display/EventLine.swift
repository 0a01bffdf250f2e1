import Foundation

/// Renders the lines printed above the status line for events.
package enum EventLine {
    /// One line for `event` at wall-clock `time` (no newline).
    package static func render(_ event: TrackerEvent, at time: Date, options: RenderOptions) -> String {
        let stamp = StatusLine.utcTime(time)
        let text: String
        switch event {
        case .regionEntered(let name): text = "entered region \(name)"
        case .regionExited(let name): text = "left region \(name)"
        case .visitStarted(let coordinate): text = "arrived at \(options.format.format(coordinate))"
        case .visitEnded(let coordinate): text = "left \(options.format.format(coordinate))"
        case .reconnected(let what): text = "reconnected to \(what)"
        case .disconnected(let why): text = "disconnected: \(why)"
        case .note(let note): text = note
        }
        guard options.color else { return "\(stamp) \(text)" }
        return "\u{1B}[2m\(stamp)\u{1B}[0m \(text)"
    }
}
