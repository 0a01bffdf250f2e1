import GPSReports
import GeoTrackService

/// What a run shows a person while it lasts: the status line (``StatusDisplay``) or the
/// full-screen sky view (``SkyDisplay``). ``TrackerOutput`` hands it the service's updates; the
/// session hands it the terminal's resizes and the process's suspensions.
package protocol TrackerDisplay: Sendable {
    /// Shows a new status.
    func show(_ status: TrackingStatus)
    /// Shows an event.
    func event(_ event: TrackingEvent)
    /// Takes in a report as the receiver sent it (satellites, receivers).
    func report(_ report: Report)
    /// Shows what waits for brokers that cannot take it (`--publish`), or nothing (nil).
    func showPublishing(_ status: PublishingStatus?)
    /// Seconds until ``tick()`` has something to draw, or `nil` while nothing would change
    /// without an update: the session sleeps until then, and not at all while idle.
    var nextTick: Double? { get }
    /// Redraws what was held back, and countdowns; called when ``nextTick`` said.
    func tick()
    /// The terminal was resized (SIGWINCH).
    func resize()
    /// The process is about to stop (SIGTSTP): give the terminal back.
    func suspend()
    /// The process continues (SIGCONT): take the terminal again and redraw.
    func resume()
    /// The run ended: leave the last state visible and restore the terminal. Idempotent.
    func finish()
    /// Whether a write failed because nobody reads the output any more.
    var isOutputClosed: Bool { get }
}

extension TrackerDisplay {
    /// A display without room for it does not show publishing.
    package func showPublishing(_ status: PublishingStatus?) {}
}

extension StatusDisplay: TrackerDisplay {
    /// The status line draws only the service's status and events.
    package func report(_ report: Report) {}
}
