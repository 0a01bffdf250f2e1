import Foundation
import GPSReports
import GeoTrackService
import LocationKit

/// Folds what `watch` hears from GeolocationService's Drivers and the manager's delegate callbacks
/// into tracker updates.
///
/// Pure and synchronous, like ``SourceReducer``: the session feeds it every input as the
/// manager reports it, under one lock, so that their order is kept.
package struct WatchReducer: Sendable {
    /// One thing `watch` heard.
    package enum Input: Sendable {
        /// The service's status Driver changed; `heading` is the heading Driver's latest value.
        case status(ServiceStatus, heading: Heading?)
        /// The manager delivered a location (only observed when JSON, GPX or `--count` need every one).
        case location(Location)
        /// The receiver's connection state changed.
        case receiver(SourceState?)
        /// A monitored region was entered.
        case regionEntered(String)
        /// A monitored region was left.
        case regionExited(String)
        /// A visit began or ended.
        case visit(Visit)
    }

    /// How the source is named on the status line.
    package let sourceName: String
    /// Whether the first disconnection ends the run (`--no-retry`).
    package let failOnDisconnect: Bool
    private var lastSummary: FixSummary?
    private var connectionLost = false
    private var lastError: String?

    /// Creates a reducer for gpsd at `sourceName`.
    package init(sourceName: String, failOnDisconnect: Bool) {
        self.sourceName = sourceName
        self.failOnDisconnect = failOnDisconnect
    }

    /// The updates one input causes, in order.
    package mutating func reduce(_ input: Input) -> [TrackerUpdate] {
        switch input {
        case .status(let status, let heading):
            return [.status(state(for: status, heading: heading))]
        case .location(let location):
            return [.location(summary(location, heading: nil))]
        case .receiver(let state):
            return receiverChanged(state)
        case .regionEntered(let name):
            return [.event(.regionEntered(name))]
        case .regionExited(let name):
            return [.event(.regionExited(name))]
        case .visit(let visit):
            return [.event(visit.departureDate == nil ? .visitStarted(visit.coordinate) : .visitEnded(visit.coordinate))]
        }
    }

    /// Whether `heading` describes the moment of `location`: a course over ground only for its
    /// own fix, a sensor's heading for a few seconds. An older heading is not shown, so a
    /// receiver that stopped moving does not keep showing the course it last had; without a
    /// current heading the summary falls back to the fix's course, and only while moving.
    static func heading(_ heading: Heading, isCurrentFor location: Location) -> Bool {
        switch heading.source {
        case .courseOverGround:
            heading.timestamp == location.timestamp
        case .sensor:
            abs(location.timestamp.timeIntervalSince(heading.timestamp)) < 5
        }
    }

    private mutating func summary(_ location: Location, heading: Heading?) -> FixSummary {
        let current = heading.flatMap { Self.heading($0, isCurrentFor: location) ? $0.bestHeading : nil }
        let summary = FixSummary(fix: Fix(location: location), satellitesUsed: location.gnss.satellitesUsed, heading: current)
        lastSummary = summary
        return summary
    }

    private mutating func state(for status: ServiceStatus, heading: Heading?) -> StatusState {
        switch status {
        case .waitingForAuthorization: return .waitingForAuthorization
        case .denied: return .denied
        case .gpsdUnreachable(let retryingIn): return .gpsdUnreachable(reason: lastError ?? sourceName, retryingIn: retryingIn)
        case .noReceiver: return .noReceiver
        case .searching(let seen, let used): return .searching(seen: seen, used: used)
        case .fix(_, let location):
            return .fix(summary(location, heading: heading))
        case .stale:
            if let lastSummary { return .stale(lastSummary) }
            return .searching(seen: 0, used: 0)
        }
    }

    private mutating func receiverChanged(_ state: SourceState?) -> [TrackerUpdate] {
        switch state {
        case .disconnected(let error)?:
            lastError = error.message
            if failOnDisconnect {
                return [.failed(CLIError(error))]
            }
            guard !connectionLost else { return [] }
            connectionLost = true
            return [.event(.disconnected(error.message))]
        case .connected?, .receiverPresent?:
            guard connectionLost else { return [] }
            connectionLost = false
            return [.event(.reconnected(sourceName))]
        default:
            return []
        }
    }
}
