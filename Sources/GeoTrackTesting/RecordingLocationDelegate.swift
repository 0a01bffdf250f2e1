import LocationKit

/// A ``LocationManagerDelegate`` that records every callback, in order, for tests.
@MainActor
public final class RecordingLocationDelegate: LocationManagerDelegate {
    /// One recorded callback.
    public enum Event: Sendable, Hashable {
        /// Locations delivered.
        case locations([Location])
        /// A heading delivered.
        case heading(Heading)
        /// An error reported.
        case error(LocationError)
        /// The authorization status after a change.
        case authorization(AuthorizationStatus)
        /// A region entered, by identifier.
        case enter(String)
        /// A region left, by identifier.
        case exit(String)
        /// A region state determined.
        case state(RegionState, String)
        /// Region monitoring failed.
        case monitoringFailed(String?, LocationError)
        /// Region monitoring began.
        case startedMonitoring(String)
        /// A visit.
        case visit(Visit)
        /// Updates paused.
        case pause
        /// Updates resumed.
        case resume
        /// The receiver status changed.
        case receiver(ReceiverStatus)
    }

    /// Every callback so far.
    public private(set) var events: [Event] = []

    /// Creates an empty recorder.
    public init() {}

    /// Every location delivered, flattened.
    public var locations: [Location] {
        events.flatMap { event -> [Location] in
            if case .locations(let list) = event { return list }
            return []
        }
    }

    /// Every heading delivered.
    public var headings: [Heading] {
        events.compactMap { if case .heading(let heading) = $0 { heading } else { nil } }
    }

    /// Every error reported.
    public var errors: [LocationError] {
        events.compactMap { if case .error(let error) = $0 { error } else { nil } }
    }

    /// Records the callback.
    public func locationManager(_ manager: LocationManager, didUpdateLocations locations: [Location]) { events.append(.locations(locations)) }
    /// Records the callback.
    public func locationManager(_ manager: LocationManager, didUpdateHeading heading: Heading) { events.append(.heading(heading)) }
    /// Records the callback.
    public func locationManager(_ manager: LocationManager, didFailWithError error: LocationError) { events.append(.error(error)) }
    /// Records the callback.
    public func locationManagerDidChangeAuthorization(_ manager: LocationManager) { events.append(.authorization(manager.authorizationStatus)) }
    /// Records the callback.
    public func locationManager(_ manager: LocationManager, didEnterRegion region: CircularRegion) { events.append(.enter(region.identifier)) }
    /// Records the callback.
    public func locationManager(_ manager: LocationManager, didExitRegion region: CircularRegion) { events.append(.exit(region.identifier)) }
    /// Records the callback.
    public func locationManager(_ manager: LocationManager, didDetermineState state: RegionState, for region: CircularRegion) {
        events.append(.state(state, region.identifier))
    }
    /// Records the callback.
    public func locationManager(_ manager: LocationManager, monitoringDidFailFor region: CircularRegion?, withError error: LocationError) {
        events.append(.monitoringFailed(region?.identifier, error))
    }
    /// Records the callback.
    public func locationManager(_ manager: LocationManager, didStartMonitoringFor region: CircularRegion) { events.append(.startedMonitoring(region.identifier)) }
    /// Records the callback.
    public func locationManager(_ manager: LocationManager, didVisit visit: Visit) { events.append(.visit(visit)) }
    /// Records the callback.
    public func locationManagerDidPauseLocationUpdates(_ manager: LocationManager) { events.append(.pause) }
    /// Records the callback.
    public func locationManagerDidResumeLocationUpdates(_ manager: LocationManager) { events.append(.resume) }
    /// Records the callback.
    public func locationManager(_ manager: LocationManager, didChangeReceiverStatus status: ReceiverStatus) { events.append(.receiver(status)) }
}
