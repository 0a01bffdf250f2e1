import GPSReports

/// Folds a location source's events into tracker updates: the status line's state, positions, and events.
///
/// Pure and synchronous: one event in, the updates it causes out. It remembers what the
/// status line needs across events (satellites, the last fix, the sensor heading, whether
/// the source was connected, so a reconnection is reported).
package struct SourceReducer: Sendable {
    /// How the source is named on the status line ("gpsd at localhost:2947", "track.nmea").
    package let sourceName: String
    private var seen = 0
    private var used = 0
    private var lastFix: FixSummary?
    private var hasCurrentFix = false
    private var sensorHeading: Double?
    private var wasConnected = false
    private var lostConnection = false
    private var lastError: String?
    private var receiverAbsent = false

    /// Creates a reducer for a source with this name.
    package init(sourceName: String) {
        self.sourceName = sourceName
    }

    /// The status line before the first event.
    package var initialStatus: StatusState { .starting("connecting to \(sourceName)") }

    /// The updates one event causes, in order.
    package mutating func reduce(_ event: SourceEvent) -> [TrackerUpdate] {
        switch event {
        case .report(let report):
            return reduce(report)
        case .state(let state):
            return reduce(state)
        }
    }

    private mutating func reduce(_ report: Report) -> [TrackerUpdate] {
        switch report {
        case .fix(let fix):
            guard fix.coordinate != nil else {
                hasCurrentFix = false
                return receiverAbsent ? [] : [.status(.searching(seen: seen, used: used))]
            }
            receiverAbsent = false
            let summary = FixSummary(fix: fix, satellitesUsed: used > 0 ? used : nil, heading: sensorHeading)
            lastFix = summary
            hasCurrentFix = true
            return [.location(summary), .status(.fix(summary))]
        case .sky(let sky):
            seen = sky.seen
            used = sky.used
            if hasCurrentFix, var summary = lastFix {
                summary.satellitesUsed = used > 0 ? used : summary.satellitesUsed
                lastFix = summary
                return []
            }
            return receiverAbsent ? [] : [.status(.searching(seen: seen, used: used))]
        case .attitude(let attitude):
            sensorHeading = attitude.heading ?? sensorHeading
            return []
        case .devices(let devices):
            receiverAbsent = devices.isEmpty
            return devices.isEmpty ? [.status(.noReceiver)] : []
        case .deviceAdded(let device):
            receiverAbsent = false
            return [.event(.note("receiver \(device.path) attached"))]
        case .deviceRemoved(let device):
            return [.event(.note("receiver \(device.path) removed"))]
        case .version:
            return []
        }
    }

    private mutating func reduce(_ state: SourceState) -> [TrackerUpdate] {
        switch state {
        case .connecting:
            return [.status(initialStatus)]
        case .connected:
            var updates: [TrackerUpdate] = []
            if lostConnection {
                updates.append(.event(.reconnected(sourceName)))
            }
            wasConnected = true
            lostConnection = false
            updates.append(.status(.searching(seen: seen, used: used)))
            return updates
        case .receiverPresent:
            receiverAbsent = false
            return hasCurrentFix ? [] : [.status(.searching(seen: seen, used: used))]
        case .receiverAbsent:
            receiverAbsent = true
            hasCurrentFix = false
            return [.status(.noReceiver)]
        case .stale:
            hasCurrentFix = false
            if let lastFix { return [.status(.stale(lastFix))] }
            return [.status(.searching(seen: seen, used: used))]
        case .disconnected(let error):
            hasCurrentFix = false
            lastError = error.message
            var updates: [TrackerUpdate] = []
            if wasConnected && !lostConnection {
                updates.append(.event(.disconnected(error.message)))
            }
            lostConnection = true
            updates.append(.status(.gpsdUnreachable(reason: error.message, retryingIn: nil)))
            return updates
        case .retrying(let delay):
            lostConnection = true
            return [.status(.gpsdUnreachable(reason: lastError ?? "connection lost", retryingIn: delay))]
        case .finished:
            return [.status(.finished("end of \(sourceName)"))]
        }
    }
}
