import GPSReports
/// Receives a ``LocationManager``'s events on the main actor, like `CLLocationManagerDelegate`.
///
/// Every method is optional: the protocol extension provides empty defaults.
@MainActor
public protocol LocationManagerDelegate: AnyObject {
    /// New locations, oldest first; the last is the most recent.
    func locationManager(_ manager: LocationManager, didUpdateLocations locations: [Location])
    /// A new heading.
    func locationManager(_ manager: LocationManager, didUpdateHeading heading: Heading)
    /// Something failed; the error says what to do. A source that keeps failing the same way
    /// while it retries (gpsd down) is reported once, until it connects or fails otherwise;
    /// ``LocationManager/receiverStatus`` follows every attempt.
    func locationManager(_ manager: LocationManager, didFailWithError error: LocationError)
    /// ``LocationManager/authorizationStatus`` changed; also called once when the manager is
    /// made, as on iOS 14 and later.
    func locationManagerDidChangeAuthorization(_ manager: LocationManager)
    /// The device entered a monitored region.
    func locationManager(_ manager: LocationManager, didEnterRegion region: CircularRegion)
    /// The device left a monitored region.
    func locationManager(_ manager: LocationManager, didExitRegion region: CircularRegion)
    /// The state of a region became known or changed, or was asked for with ``LocationManager/requestState(for:)``.
    func locationManager(_ manager: LocationManager, didDetermineState state: RegionState, for region: CircularRegion)
    /// A region could not be monitored.
    func locationManager(_ manager: LocationManager, monitoringDidFailFor region: CircularRegion?, withError error: LocationError)
    /// Monitoring of a region began.
    func locationManager(_ manager: LocationManager, didStartMonitoringFor region: CircularRegion)
    /// An arrival (no departure date) or a departure.
    func locationManager(_ manager: LocationManager, didVisit visit: Visit)
    /// Updates paused because the device stopped moving.
    func locationManagerDidPauseLocationUpdates(_ manager: LocationManager)
    /// Updates resumed because the device moved again.
    func locationManagerDidResumeLocationUpdates(_ manager: LocationManager)
    /// The receiver's status changed (GeoTrack extension; CoreLocation has no counterpart).
    func locationManager(_ manager: LocationManager, didChangeReceiverStatus status: ReceiverStatus)
    /// A report from the receiver (a fix with or without a position, a sky view, a heading
    /// sensor's attitude, the receivers gpsd lists and their changes), exactly as the source
    /// sent it, before anything it causes is reported.
    /// Called only while access is granted and location updates run; the distance and accuracy
    /// filters do not apply. For consumers that speak gpsd's own format (GeoTrack extension).
    func locationManager(_ manager: LocationManager, didReceive report: Report)
}

extension LocationManagerDelegate {
    /// Does nothing.
    public func locationManager(_ manager: LocationManager, didUpdateLocations locations: [Location]) {}
    /// Does nothing.
    public func locationManager(_ manager: LocationManager, didUpdateHeading heading: Heading) {}
    /// Does nothing.
    public func locationManager(_ manager: LocationManager, didFailWithError error: LocationError) {}
    /// Does nothing.
    public func locationManagerDidChangeAuthorization(_ manager: LocationManager) {}
    /// Does nothing.
    public func locationManager(_ manager: LocationManager, didEnterRegion region: CircularRegion) {}
    /// Does nothing.
    public func locationManager(_ manager: LocationManager, didExitRegion region: CircularRegion) {}
    /// Does nothing.
    public func locationManager(_ manager: LocationManager, didDetermineState state: RegionState, for region: CircularRegion) {}
    /// Does nothing.
    public func locationManager(_ manager: LocationManager, monitoringDidFailFor region: CircularRegion?, withError error: LocationError) {}
    /// Does nothing.
    public func locationManager(_ manager: LocationManager, didStartMonitoringFor region: CircularRegion) {}
    /// Does nothing.
    public func locationManager(_ manager: LocationManager, didVisit visit: Visit) {}
    /// Does nothing.
    public func locationManagerDidPauseLocationUpdates(_ manager: LocationManager) {}
    /// Does nothing.
    public func locationManagerDidResumeLocationUpdates(_ manager: LocationManager) {}
    /// Does nothing.
    public func locationManager(_ manager: LocationManager, didChangeReceiverStatus status: ReceiverStatus) {}
    /// Does nothing.
    public func locationManager(_ manager: LocationManager, didReceive report: Report) {}
}
