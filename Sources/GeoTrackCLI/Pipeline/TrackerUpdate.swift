/// What the tracker's outputs (status line, JSON, GPX) receive, whatever the source.
package enum TrackerUpdate: Sendable, Equatable {
    /// The status line's state changed.
    case status(StatusState)
    /// A new position.
    case location(FixSummary)
    /// Something to print above the status line.
    case event(TrackerEvent)
    /// The source failed for good: stop with this error.
    case failed(CLIError)
}
