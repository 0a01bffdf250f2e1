import GPSReports
import GeoTrackReactive

/// `manager.rx`: every delegate callback as an `EventStream`.
///
/// Each stream subscribes when the property is read and sees every event from then on,
/// in order, while the delegate keeps receiving its callbacks. Any number of
/// subscribers may listen at once. Cancelling a consuming task releases its
/// subscription at once; when the manager is deallocated every stream finishes.
/// A replay waits for the slowest subscriber (see ``LocationManager``), so none loses an event.
/// From a live receiver each subscriber buffers at most 128 events; a subscriber that falls
/// further behind loses its oldest events (counted in ``LocationManagerDelegateProxy``'s
/// `droppedEventCount`).
@MainActor
extension Reactive where Base == LocationManager {
    /// The installed delegate proxy (installed now if needed).
    public var delegate: LocationManagerDelegateProxy {
        LocationManagerDelegateProxy.proxy(for: base)
    }

    /// The heading as a `Driver`, fed by the proxy as it calls the delegate: the current
    /// heading, then each new one. Unlike a ``heading`` stream it needs no consumer to stay
    /// current, so its `Driver.latest` can be read at any time.
    public var headingDriver: Driver<Heading> { delegate.driver(.didUpdateHeading, startingWith: base.heading) }

    /// Locations as delivered to `locationManager(_:didUpdateLocations:)`.
    public var didUpdateLocations: EventStream<[Location]> { delegate.events(.didUpdateLocations) }
    /// The latest location (when there is one), then each new one.
    public var location: EventStream<Location> { delegate.events(.location, startingWith: base.location) }
    /// The current authorization status, then each new one.
    public var authorizationStatus: EventStream<AuthorizationStatus> {
        delegate.events(.didChangeAuthorization, startingWith: base.authorizationStatus)
    }
    /// The latest heading (when there is one), then each new one.
    public var heading: EventStream<Heading> { delegate.events(.didUpdateHeading, startingWith: base.heading) }
    /// The current receiver status, then each change.
    public var receiverStatus: EventStream<ReceiverStatus> {
        delegate.events(.didChangeReceiverStatus, startingWith: base.receiverStatus)
    }
    /// Headings.
    public var didUpdateHeading: EventStream<Heading> { delegate.events(.didUpdateHeading) }
    /// Errors.
    public var didFailWithError: EventStream<LocationError> { delegate.events(.didFailWithError) }
    /// Each change of the authorization status, from now on.
    ///
    /// The status a manager has when it is made is not emitted here, though the delegate hears
    /// it (as on iOS, on the main actor's next turn): a stream made right after the manager
    /// would otherwise hear the same status twice, once from ``authorizationStatus`` and once
    /// from this callback. For the current status and then each change, read
    /// ``authorizationStatus``.
    public var didChangeAuthorization: EventStream<AuthorizationStatus> { delegate.events(.didChangeAuthorization) }
    /// Region entries.
    public var didEnterRegion: EventStream<CircularRegion> { delegate.events(.didEnterRegion) }
    /// Region exits.
    public var didExitRegion: EventStream<CircularRegion> { delegate.events(.didExitRegion) }
    /// Region states.
    public var didDetermineState: EventStream<RegionStateEvent> { delegate.events(.didDetermineState) }
    /// Region monitoring failures.
    public var monitoringDidFail: EventStream<MonitoringFailure> { delegate.events(.monitoringDidFail) }
    /// Regions whose monitoring began.
    public var didStartMonitoring: EventStream<CircularRegion> { delegate.events(.didStartMonitoring) }
    /// Visits: arrivals, then departures.
    public var didVisit: EventStream<Visit> { delegate.events(.didVisit) }
    /// Automatic pauses.
    public var didPause: EventStream<Void> { delegate.events(.didPause) }
    /// Resumptions after automatic pauses.
    public var didResume: EventStream<Void> { delegate.events(.didResume) }
    /// Receiver status changes.
    public var didChangeReceiverStatus: EventStream<ReceiverStatus> { delegate.events(.didChangeReceiverStatus) }
    /// Reports as the receiver sent them, while access is granted and location updates run.
    public var didReceiveReport: EventStream<Report> { delegate.events(.didReceiveReport) }

    /// Whether locations may be delivered; see ``LocationManager/authorizationUpdates``.
    public var isAuthorized: AuthorizationUpdates { base.authorizationUpdates }

    /// One location (Single): requests it and returns it, or throws ``LocationError``
    /// (`locationUnknown` after ``LocationManager/requestLocationTimeout``, `denied`...) or
    /// `CancellationError` when the calling task is cancelled.
    public func requestLocation() async throws -> Location {
        try await base.awaitOneLocation()
    }

    /// One location, or `nil` when none arrives in time (Maybe). Other failures still throw.
    public func requestLocationIfAvailable() async throws -> Location? {
        do {
            return try await base.awaitOneLocation()
        } catch LocationError.locationUnknown {
            return nil
        }
    }

    /// Requests authorization and waits for the answer (Completable): see ``LocationManager/requestAuthorization(_:)``.
    public func requestAuthorization(_ level: AuthorizationLevel = .whenInUse) async throws(LocationError) {
        try await base.requestAuthorization(level)
    }
}

extension LocationManager {
    /// Whether locations may be delivered: when already decided, the answer and the end;
    /// when undecided, `false`, then the answer once the user decides, then the end.
    public var authorizationUpdates: AuthorizationUpdates {
        AuthorizationUpdates(initial: authorizationStatus, changes: rx.didChangeAuthorization)
    }
}
