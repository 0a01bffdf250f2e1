import FoundationEssentials
import GPSReports
import LocationKit
#if canImport(Glibc)
import Glibc
#endif

/// Something that happened, for an event line or a JSON object: a region entered or left, a
/// visit, a lost or regained connection, a change of location access, another receiver set aside.
public struct TrackingEvent: Sendable, Hashable {
    /// What happened.
    public enum Kind: Sendable, Hashable {
        /// Entered the monitored region with this identifier.
        case regionEntered(String)
        /// Left the monitored region with this identifier.
        case regionExited(String)
        /// Arrived somewhere and stayed: a visit began (no departure date yet).
        case visitStarted(Visit)
        /// Left a visited place.
        case visitEnded(Visit)
        /// The connection to the source, which had worked, was lost; it is retried.
        case disconnected(SourceError)
        /// The connection came back after a loss.
        case reconnected
        /// Location access changed to this status.
        case authorizationChanged(AuthorizationStatus)
        /// The source has another receiver, named first, whose reports are set aside: the one
        /// named second is followed (LocationKit's `ReceiverStatus.otherReceivers`).
        case otherReceiver(String, following: String)
    }

    /// What happened.
    public var kind: Kind
    /// When: the time of the fix that caused it (regions; a visit's arrival or departure), or the
    /// clock's time when no fix did (connections, access). The same log gives the same times
    /// whether it is watched through gpsd or replayed.
    public var time: Date
    /// For a region entered or left, the fix that crossed its boundary, as the service shows
    /// it (snapped under approximate access): where and when the crossing was seen.
    public var location: Location?

    /// Creates an event.
    public init(_ kind: Kind, at time: Date, location: Location? = nil) {
        self.kind = kind
        self.time = time
        self.location = location
    }
}
