import GPSReports

/// What the status line shows: the CLI's view of GeolocationService's `status` Driver,
/// plus the latest location and heading it carries.
package enum StatusState: Sendable, Equatable {
    /// Before the first word from the source: what is being opened.
    case starting(String)
    /// Authorization has not been decided yet.
    case waitingForAuthorization
    /// The user denied location access.
    case denied
    /// gpsd cannot be reached; the next attempt is due after `retryingIn` (nil: no retry planned).
    case gpsdUnreachable(reason: String, retryingIn: Duration?)
    /// gpsd is up but has no receiver.
    case noReceiver
    /// A receiver is attached but has no position yet.
    case searching(seen: Int, used: Int)
    /// A current 2D or 3D position.
    case fix(FixSummary)
    /// The last position, no longer current.
    case stale(FixSummary)
    /// The source ended (a replay reached its end).
    case finished(String)
}

/// One position with what the status line shows beside it.
package struct FixSummary: Sendable, Equatable {
    /// The fix itself (position, altitude, speed, accuracy, time).
    package var fix: Fix
    /// Satellites used in the solution, when known.
    package var satellitesUsed: Int?
    /// Heading in degrees from true north: a heading sensor's when there is one, else the course
    /// over ground while moving; nil when standing still without a sensor.
    package var heading: Double?

    /// Below this speed (m/s) the course over ground is noise, not a heading; LocationManager's
    /// `minimumSpeedForCourseHeading` defaults to the same value.
    package static let minimumSpeedForCourse = 1.0

    /// Creates a summary; without a `heading`, the fix's course over ground stands in for it,
    /// but only while moving at ``minimumSpeedForCourse`` or faster.
    package init(fix: Fix, satellitesUsed: Int? = nil, heading: Double? = nil) {
        self.fix = fix
        self.satellitesUsed = satellitesUsed
        if let heading {
            self.heading = heading
        } else if let speed = fix.speed, speed >= Self.minimumSpeedForCourse {
            self.heading = fix.track
        } else {
            self.heading = nil
        }
    }
}

/// Something that happened, printed above the status line.
package enum TrackerEvent: Sendable, Equatable {
    /// Entered a monitored region.
    case regionEntered(String)
    /// Left a monitored region.
    case regionExited(String)
    /// Arrived somewhere and stayed (a visit began).
    case visitStarted(Coordinate)
    /// Left a visited place.
    case visitEnded(Coordinate)
    /// The connection to gpsd came back.
    case reconnected(String)
    /// The connection to gpsd was lost.
    case disconnected(String)
    /// Anything else worth a line.
    case note(String)
}
