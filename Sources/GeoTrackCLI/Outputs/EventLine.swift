import FoundationEssentials
import GeoTrackService
#if canImport(Glibc)
import Glibc
#endif

/// Renders the lines printed above the status line for the service's events.
package enum EventLine {
    /// One line for `event`, stamped with its own time (no newline).
    package static func render(_ event: TrackingEvent, options: RenderOptions) -> String {
        let stamp = UTCText.timeOfDay(event.time)
        let text: String
        switch event.kind {
        case .regionEntered(let name): text = "entered region \(name)"
        case .regionExited(let name): text = "left region \(name)"
        case .visitStarted(let visit): text = "arrived at \(options.format.format(visit.coordinate))"
        case .visitEnded(let visit): text = "left \(options.format.format(visit.coordinate))"
        case .reconnected: text = "reconnected to \(options.sourceName)"
        case .disconnected(let error): text = "disconnected: \(error.advisedMessage)"
        case .authorizationChanged(let status): text = "location access: \(status)"
        case .otherReceiver(let other, let followed):
            text = "\(options.sourceName) has another receiver, \(other): following \(followed), the first with a position "
                + "(--device chooses; 'geotrack devices' lists them)"
        }
        // Region names come from the configuration, messages from gpsd: never raw to the terminal.
        let safe = Terminal.safe(text)
        guard options.color else { return "\(stamp) \(safe)" }
        return ANSI.Style.dim.rawValue + stamp + ANSI.reset + " " + safe
    }
}
