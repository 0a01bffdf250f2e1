import LocationKit

/// A ``LocationManagerDelegate`` that records every callback, in order, for tests.
@MainActor
public final class RecordingLocationDelegate: LocationManagerDelegate {
    /// One recorded callback.
    public enum Event: Sendable, Hashable {
        case locations([Location])
        case heading(Heading)
        case error(LocationError)
        case authorization(AuthorizationStatus)
        case enter(String)
        case exit(String)
        case state(RegionState, String)
        case monitoringFailed(String?, LocationError)
        case startedMonitoring(String)
        case visit(Visit)
        case pause
        case resume
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

    public func locationManager(_ manager: LocationManager, didUpdateLocations locations: [Location]) { events.append(.locations(locations)) }
    public func locationManager(_ manager: LocationManager, didUpdateHeading heading: Heading) { events.append(.heading(heading)) }
    public func locationManager(_ manager: LocationManager, didFailWithError error: LocationError) { events.append(.error(error)) }
    public func locationManagerDidChangeAuthorization(_ manager: LocationManager) { events.append(.authorization(manager.authorizationStatus)) }
    public func locationManager(_ manager: LocationManager, didEnterRegion region: CircularRegion) { events.append(.enter(region.identifier)) }
    public func locationManager(_ manager: LocationManager, didExitRegion region: CircularRegion) { events.append(.exit(region.identifier)) }
    public func locationManager(_ manager: LocationManager, didDetermineState state: RegionState, for region: CircularRegion) {
        events.append(.state(state, region.identifier))
    }
    public func locationManager(_ manager: LocationManager, monitoringDidFailFor region: CircularRegion?, withError error: LocationError) {
        events.append(.monitoringFailed(region?.identifier, error))
    }
    public func locationManager(_ manager: LocationManager, didStartMonitoringFor region: CircularRegion) { events.append(.startedMonitoring(region.identifier)) }
    public func locationManager(_ manager: LocationManager, didVisit visit: Visit) { events.append(.visit(visit)) }
    public func locationManagerDidPauseLocationUpdates(_ manager: LocationManager) { events.append(.pause) }
    public func locationManagerDidResumeLocationUpdates(_ manager: LocationManager) { events.append(.resume) }
    public func locationManager(_ manager: LocationManager, didChangeReceiverStatus status: ReceiverStatus) { events.append(.receiver(status)) }
}
