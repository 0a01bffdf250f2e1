import GPSReports
import GeoTrackService

/// What a run shows a person while it lasts: the status line (``StatusDisplay``) or the
/// full-screen sky view (``SkyDisplay``).
///
/// It is an output like the others (``RunOutput``: it handles each update, ticks between them
/// and finishes), the first that ``TrackerOutput`` hands each update to. Beyond them it has the
/// terminal: the session hands it the window's resizes and the process's suspensions, and it
/// shows what waits for brokers.
package protocol TrackerDisplay: RunOutput {
    /// Shows a new status.
    func show(_ status: TrackingStatus)
    /// Shows an event.
    func event(_ event: TrackingEvent)
    /// Takes in a report as the receiver sent it (satellites, receivers).
    func report(_ report: Report)
    /// Shows what waits for brokers that cannot take it (`--publish`), or nothing (nil).
    func showPublishing(_ status: PublishingStatus?)
    /// The terminal was resized (SIGWINCH).
    func resize()
    /// The process is about to stop (SIGTSTP): give the terminal back.
    func suspend()
    /// The process continues (SIGCONT): take the terminal again and redraw.
    func resume()
}

extension TrackerDisplay {
    /// A display without room for it does not show publishing.
    package func showPublishing(_ status: PublishingStatus?) {}

    /// Draws what an update says: the status, an event, a receiver's report. A location is
    /// drawn from the status that carries it.
    package func handle(_ update: TrackingUpdate) {
        switch update {
        case .status(let status): show(status)
        case .report(let report): self.report(report)
        case .event(let event): self.event(event)
        case .location: break
        }
    }
}

extension StatusDisplay: TrackerDisplay {
    /// The status line draws only the service's status and events.
    package func report(_ report: Report) {}
}
