/// What a location source says: a report, or a change in its own state.
public enum SourceEvent: Sendable, Hashable {
    /// A report from the receiver.
    case report(Report)
    /// The source's state changed.
    case state(SourceState)
}

/// The state of a location source, such as a connection to gpsd or a replay.
public enum SourceState: Sendable, Hashable, CustomStringConvertible {
    /// Opening the connection or the file.
    case connecting
    /// Connected; no word yet on receivers.
    case connected
    /// At least one receiver is attached and reporting.
    case receiverPresent
    /// The source is up, but no receiver is attached to it.
    case receiverAbsent
    /// Nothing has arrived for longer than the source's stale limit; the last fix is no longer current.
    case stale
    /// The connection is gone, and why.
    case disconnected(SourceError)
    /// A new attempt follows after this delay.
    case retrying(after: Duration)
    /// The source ended for good (a replay reached its end, or the caller stopped it).
    case finished

    /// The state in words (`connecting`, `receiver present`, …).
    public var description: String {
        switch self {
        case .connecting: "connecting"
        case .connected: "connected"
        case .receiverPresent: "receiver present"
        case .receiverAbsent: "no receiver"
        case .stale: "stale"
        case .disconnected(let error): "disconnected: \(error)"
        case .retrying(let delay): "retrying in \(delay.components.seconds)s"
        case .finished: "finished"
        }
    }
}
