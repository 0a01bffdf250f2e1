import GPSReports
import GeoTrackService
import LocationKit

/// The service's events as JSON objects beside gpsd's TPVs: one line each, `"class":"EVENT"`,
/// so `jq 'select(.class=="TPV")'` gives back gpsd's stream.
///
/// `{"class":"EVENT","event":"regionEntered","time":"…","region":"home"}`; `regionExited` likewise;
/// `visitStarted`/`visitEnded` with `lat`, `lon`, `radius`, `arrival` and (ended) `departure`;
/// `disconnected` with `message`; `reconnected`; `authorization` with `status`; `otherReceiver`
/// with `device` (set aside) and `following`.
package enum EventJSON {
    /// One line for `event` (no newline).
    package static func line(_ event: TrackingEvent) -> String {
        var writer = JSONWriter()
        writer.raw("{\"class\":\"EVENT\",\"event\":")
        switch event.kind {
        case .regionEntered: writer.string("regionEntered")
        case .regionExited: writer.string("regionExited")
        case .visitStarted: writer.string("visitStarted")
        case .visitEnded: writer.string("visitEnded")
        case .disconnected: writer.string("disconnected")
        case .reconnected: writer.string("reconnected")
        case .authorizationChanged: writer.string("authorization")
        case .otherReceiver: writer.string("otherReceiver")
        }
        writer.raw(",\"time\":")
        writer.isoTime(secondsSince1970: event.time.timeIntervalSince1970)
        switch event.kind {
        case .regionEntered(let name), .regionExited(let name):
            writer.raw(",\"region\":")
            writer.string(name)
        case .visitStarted(let visit), .visitEnded(let visit):
            writer.raw(",\"lat\":")
            writer.fixed(visit.coordinate.latitude, decimals: 9)
            writer.raw(",\"lon\":")
            writer.fixed(visit.coordinate.longitude, decimals: 9)
            writer.raw(",\"radius\":")
            writer.fixed(visit.horizontalAccuracy, decimals: 1)
            writer.raw(",\"arrival\":")
            writer.isoTime(secondsSince1970: visit.arrivalDate.timeIntervalSince1970)
            if let departure = visit.departureDate {
                writer.raw(",\"departure\":")
                writer.isoTime(secondsSince1970: departure.timeIntervalSince1970)
            }
        case .disconnected(let error):
            writer.raw(",\"message\":")
            writer.string(error.advisedMessage)
        case .reconnected:
            break
        case .authorizationChanged(let status):
            writer.raw(",\"status\":")
            writer.string(status.rawValue)
        case .otherReceiver(let other, let followed):
            writer.raw(",\"device\":")
            writer.string(other)
            writer.raw(",\"following\":")
            writer.string(followed)
        }
        writer.raw("}")
        return writer.withBytes { String(decoding: $0, as: UTF8.self) }
    }
}
