import GPSReports
import GeoTrackReactive

// The events the proxy emits: streams of them through `manager.rx`, or synchronous observers
// through `manager.rx.delegate.observe(_:_:)`.
extension DelegateEvent where Element == [Location] {
    /// The locations of each `locationManager(_:didUpdateLocations:)` call.
    public static var didUpdateLocations: Self { .init("didUpdateLocations") }
}

extension DelegateEvent where Element == Location {
    /// Each location delivered, one at a time (the last of each `didUpdateLocations` batch).
    public static var location: Self { .init("location") }
}

extension DelegateEvent where Element == Heading {
    /// Each `locationManager(_:didUpdateHeading:)` heading.
    public static var didUpdateHeading: Self { .init("didUpdateHeading") }
}

extension DelegateEvent where Element == LocationError {
    /// Each `locationManager(_:didFailWithError:)` error.
    public static var didFailWithError: Self { .init("didFailWithError") }
}

extension DelegateEvent where Element == AuthorizationStatus {
    /// Each new status given to `locationManagerDidChangeAuthorization(_:)`.
    public static var didChangeAuthorization: Self { .init("didChangeAuthorization") }
}

extension DelegateEvent where Element == CircularRegion {
    /// Each region given to `locationManager(_:didEnterRegion:)`.
    public static var didEnterRegion: Self { .init("didEnterRegion") }
    /// Each region given to `locationManager(_:didExitRegion:)`.
    public static var didExitRegion: Self { .init("didExitRegion") }
    /// Each region given to `locationManager(_:didStartMonitoringFor:)`.
    public static var didStartMonitoring: Self { .init("didStartMonitoring") }
}

extension DelegateEvent where Element == RegionStateEvent {
    /// Each region state given to `locationManager(_:didDetermineState:for:)`.
    public static var didDetermineState: Self { .init("didDetermineState") }
}

extension DelegateEvent where Element == MonitoringFailure {
    /// Each failure given to `locationManager(_:monitoringDidFailFor:withError:)`.
    public static var monitoringDidFail: Self { .init("monitoringDidFail") }
}

extension DelegateEvent where Element == Visit {
    /// Each visit given to `locationManager(_:didVisit:)`.
    public static var didVisit: Self { .init("didVisit") }
}

extension DelegateEvent where Element == Void {
    /// Each `locationManagerDidPauseLocationUpdates(_:)` call.
    public static var didPause: Self { .init("didPause") }
    /// Each `locationManagerDidResumeLocationUpdates(_:)` call.
    public static var didResume: Self { .init("didResume") }
}

extension DelegateEvent where Element == Report {
    /// Each report given to `locationManager(_:didReceive:)`.
    public static var didReceiveReport: Self { .init("didReceiveReport") }
}

extension DelegateEvent where Element == ReceiverStatus {
    /// Each status given to `locationManager(_:didChangeReceiverStatus:)`.
    public static var didChangeReceiverStatus: Self { .init("didChangeReceiverStatus") }
}
