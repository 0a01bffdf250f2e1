import Reactive

// The events the proxy emits; internal, reached through `manager.rx`.
extension DelegateEvent where Element == [Location] {
    static var didUpdateLocations: Self { .init("didUpdateLocations") }
}

extension DelegateEvent where Element == Location {
    static var location: Self { .init("location") }
}

extension DelegateEvent where Element == Heading {
    static var didUpdateHeading: Self { .init("didUpdateHeading") }
}

extension DelegateEvent where Element == LocationError {
    static var didFailWithError: Self { .init("didFailWithError") }
}

extension DelegateEvent where Element == AuthorizationStatus {
    static var didChangeAuthorization: Self { .init("didChangeAuthorization") }
}

extension DelegateEvent where Element == CircularRegion {
    static var didEnterRegion: Self { .init("didEnterRegion") }
    static var didExitRegion: Self { .init("didExitRegion") }
    static var didStartMonitoring: Self { .init("didStartMonitoring") }
}

extension DelegateEvent where Element == RegionStateEvent {
    static var didDetermineState: Self { .init("didDetermineState") }
}

extension DelegateEvent where Element == MonitoringFailure {
    static var monitoringDidFail: Self { .init("monitoringDidFail") }
}

extension DelegateEvent where Element == Visit {
    static var didVisit: Self { .init("didVisit") }
}

extension DelegateEvent where Element == Void {
    static var didPause: Self { .init("didPause") }
    static var didResume: Self { .init("didResume") }
}

extension DelegateEvent where Element == ReceiverStatus {
    static var didChangeReceiverStatus: Self { .init("didChangeReceiverStatus") }
}
