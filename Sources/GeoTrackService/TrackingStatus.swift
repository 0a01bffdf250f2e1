import GPSReports
import LocationKit

/// What the user is shown about tracking right now: the one status every output draws.
///
/// It is derived by ``GeolocationService`` from the manager's authorization status, its
/// `ReceiverStatus` (what the source says about the receiver) and its locations and headings.
/// Three types say "status" in GeoTrack; from the bottom up:
/// - `SourceState` (GPSReports): the source's own connection state: connecting, stale, retrying…
/// - `ReceiverStatus` (LocationKit): what the manager knows of the receiver: that state plus
///   satellites and fix mode.
/// - `TrackingStatus` (this type): what the user sees, access and position included.
public enum TrackingStatus: Sendable, Hashable, CustomStringConvertible {
    /// The source has said nothing yet: gpsd is being reached, the file opened.
    case starting
    /// Location access is not decided yet.
    case waitingForAuthorization
    /// The user denied location access.
    case denied
    /// An administrator's policy forbids location access.
    case restricted(policyPath: String)
    /// gpsd cannot be reached: why (when known), and when the next attempt is due (nil: none planned yet).
    case unreachable(SourceError?, retryingIn: Duration?)
    /// The source is up but has no receiver.
    case noReceiver
    /// A receiver reports, without a position yet: the satellites it sees (`nil` when only the
    /// number used is known, as in a replayed GPX track) and uses.
    case searching(seen: Int?, used: Int)
    /// A current position, with the heading that describes the same moment, if any (a heading
    /// sensor's recent reading, or the fix's own course while moving).
    case fix(Location, heading: Heading?)
    /// The source went quiet: the last position (if any) no longer describes the present.
    case stale(Location?)
    /// The source ended by itself: a replay reached its end.
    case finished
    /// The source ended with a failure: a replay's unreadable file, or gpsd unreachable without retries.
    case failed(SourceError)

    /// Whether the source has ended (finished or failed): nothing more will come.
    public var hasEnded: Bool {
        switch self {
        case .finished, .failed: true
        default: false
        }
    }

    /// Whether the last position still describes the present: with a fix, or after a replay
    /// that ended with one (its last position stays). Quiet or lost sources, a lost fix and
    /// withdrawn access all mean it no longer does.
    public var holdsPosition: Bool {
        switch self {
        case .fix, .finished: true
        default: false
        }
    }

    /// The status in words, with what to do where the user can do something.
    public var description: String {
        switch self {
        case .starting: "starting"
        case .waitingForAuthorization: "waiting for location access (run `geotrack auth grant`)"
        case .denied: "location access denied (run `geotrack auth grant`)"
        case .restricted(let path): "location access restricted by the administrator (\(path))"
        case .unreachable(let error, let delay):
            "gpsd unreachable" + (delay.map { ", retrying in \($0.components.seconds)s" } ?? "")
                + (error.map { ": \($0.message)" } ?? "")
        case .noReceiver: "no GPS receiver attached to gpsd"
        case .searching(let seen?, let used): "searching: \(used)/\(seen) satellites"
        case .searching(nil, let used): "searching: \(used) satellites used"
        case .fix(let location, let heading): "\(location.gnss.fixMode) fix: \(location)" + (heading.map { " \($0)" } ?? "")
        case .stale: "stale: no recent fix"
        case .finished: "finished"
        case .failed(let error): "failed: \(error.message)"
        }
    }
}
