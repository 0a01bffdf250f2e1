import GPSReports
import LocationKit

/// One thing a ``GeolocationService`` tells its outputs, in the order it happened: what each
/// output (status line, event lines, JSON, GPX, a publisher) draws, and nothing it must derive.
public enum TrackingUpdate: Sendable, Hashable {
    /// The status changed.
    case status(TrackingStatus)
    /// A location was delivered (every one, after the manager's filters): for a track.
    case location(Location)
    /// A report exactly as the receiver sent it (fixes with or without a position, sky views,
    /// attitudes, gpsd's receivers), before anything it caused: for outputs in gpsd's own
    /// format, and for the sky view's satellites and receiver.
    case report(Report)
    /// Something happened.
    case event(TrackingEvent)
}
