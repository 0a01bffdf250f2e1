import GPSReports
import GeoTrackReactive

/// The ``LocationManager``'s delegate proxy: it forwards every callback to the manager's
/// ``LocationManager/delegate`` and emits it on the `manager.rx` streams.
///
/// Installed on first use of `manager.rx`; setting `manager.delegate` afterwards replaces
/// the forward delegate and leaves the proxy (and every stream) in place.
public final class LocationManagerDelegateProxy: DelegateProxy<LocationManager, any LocationManagerDelegate>,
    DelegateProxyType, LocationManagerDelegate {
    /// Creates the proxy for `parentObject`; use `DelegateProxyType.proxy(for:)` instead.
    public required init(parentObject: LocationManager) {
        super.init(parentObject: parentObject)
    }

    /// Calls the forward delegate, then emits the event on its streams.
    public func locationManager(_ manager: LocationManager, didUpdateLocations locations: [Location]) {
        forward(.didUpdateLocations, locations) { $0.locationManager(manager, didUpdateLocations: locations) }
        for location in locations { emit(.location, location) }
    }

    /// Calls the forward delegate, then emits the event on its streams.
    public func locationManager(_ manager: LocationManager, didUpdateHeading heading: Heading) {
        forward(.didUpdateHeading, heading) { $0.locationManager(manager, didUpdateHeading: heading) }
    }

    /// Calls the forward delegate, then emits the event on its streams.
    public func locationManager(_ manager: LocationManager, didFailWithError error: LocationError) {
        forward(.didFailWithError, error) { $0.locationManager(manager, didFailWithError: error) }
    }

    /// Calls the forward delegate, then emits the event on its streams.
    public func locationManagerDidChangeAuthorization(_ manager: LocationManager) {
        forward(.didChangeAuthorization, manager.authorizationStatus) { $0.locationManagerDidChangeAuthorization(manager) }
    }

    /// Calls the forward delegate, then emits the event on its streams.
    public func locationManager(_ manager: LocationManager, didEnterRegion region: CircularRegion) {
        forward(.didEnterRegion, region) { $0.locationManager(manager, didEnterRegion: region) }
    }

    /// Calls the forward delegate, then emits the event on its streams.
    public func locationManager(_ manager: LocationManager, didExitRegion region: CircularRegion) {
        forward(.didExitRegion, region) { $0.locationManager(manager, didExitRegion: region) }
    }

    /// Calls the forward delegate, then emits the event on its streams.
    public func locationManager(_ manager: LocationManager, didDetermineState state: RegionState, for region: CircularRegion) {
        forward(.didDetermineState, RegionStateEvent(state: state, region: region)) {
            $0.locationManager(manager, didDetermineState: state, for: region)
        }
    }

    /// Calls the forward delegate, then emits the event on its streams.
    public func locationManager(_ manager: LocationManager, monitoringDidFailFor region: CircularRegion?, withError error: LocationError) {
        forward(.monitoringDidFail, MonitoringFailure(region: region, error: error)) {
            $0.locationManager(manager, monitoringDidFailFor: region, withError: error)
        }
    }

    /// Calls the forward delegate, then emits the event on its streams.
    public func locationManager(_ manager: LocationManager, didStartMonitoringFor region: CircularRegion) {
        forward(.didStartMonitoring, region) { $0.locationManager(manager, didStartMonitoringFor: region) }
    }

    /// Calls the forward delegate, then emits the event on its streams.
    public func locationManager(_ manager: LocationManager, didVisit visit: Visit) {
        forward(.didVisit, visit) { $0.locationManager(manager, didVisit: visit) }
    }

    /// Calls the forward delegate, then emits the event on its streams.
    public func locationManagerDidPauseLocationUpdates(_ manager: LocationManager) {
        forward(.didPause, ()) { $0.locationManagerDidPauseLocationUpdates(manager) }
    }

    /// Calls the forward delegate, then emits the event on its streams.
    public func locationManagerDidResumeLocationUpdates(_ manager: LocationManager) {
        forward(.didResume, ()) { $0.locationManagerDidResumeLocationUpdates(manager) }
    }

    /// Calls the forward delegate, then emits the event on its streams.
    public func locationManager(_ manager: LocationManager, didChangeReceiverStatus status: ReceiverStatus) {
        forward(.didChangeReceiverStatus, status) { $0.locationManager(manager, didChangeReceiverStatus: status) }
    }

    /// Calls the forward delegate, then emits the event on its streams.
    public func locationManager(_ manager: LocationManager, didReceive report: Report) {
        forward(.didReceiveReport, report) { $0.locationManager(manager, didReceive: report) }
    }
}
