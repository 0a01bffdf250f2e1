import GPSReports
import LocationKit
import Reactive

/// The location as the `geotrack` terminal shows it: a handful of ``Driver``s over a
/// ``LocationManager``.
///
/// On creation the service requests authorization (through the manager's prompter, if
/// any) and starts location and heading updates by itself. Every driver replays its
/// latest value to a late consumer and never fails.
@MainActor
public final class GeolocationService {
    /// The manager the service drives.
    public let manager: LocationManager
    /// Whether location access is granted: the current answer, then each change.
    public let authorized: Driver<Bool>
    /// The current position (never a stale one).
    public let location: Driver<Coordinate>
    /// The latest full location — accuracy, altitude, speed, satellites, time — for a status line.
    public let latestLocation: Driver<Location>
    /// The latest heading.
    public let heading: Driver<Heading>
    /// What the service is doing: waiting for access, unreachable gpsd, searching, a fix, stale...
    public let status: Driver<ServiceStatus>
    /// The observations of the manager's callbacks that feed the drivers, for the service's lifetime.
    private let observations: [Observation]

    /// Creates the service, requests authorization and starts updates.
    ///
    /// - Parameter level: the access to ask for when undecided.
    public init(manager: LocationManager, requesting level: AuthorizationLevel = .whenInUse) {
        self.manager = manager
        let rx = manager.rx
        let proxy = rx.delegate
        // Every driver is fed synchronously, on the main actor, as the manager calls its
        // delegate: no task, no buffer and no thread wake-up per fix, and each driver's latest
        // value is current as soon as the callback has returned.
        let authorizedRelay = DriverRelay(manager.authorizationStatus.isAuthorized)
        authorized = authorizedRelay.driver
        let coordinateRelay = DriverRelay(manager.location.flatMap { $0.isStale ? nil : $0.coordinate })
        location = coordinateRelay.driver
        latestLocation = proxy.driver(.location, startingWith: manager.location)
        heading = rx.headingDriver

        let reducer = ServiceStatusReducer(authorization: manager.authorizationStatus, receiver: manager.receiverStatus,
                                           location: manager.location)
        let relay = DriverRelay(reducer.status)
        status = relay.driver
        let follower = StatusFollower(reducer, relay: relay)
        observations = [
            proxy.observe(.didChangeAuthorization) { status in
                authorizedRelay.acceptIfChanged(status.isAuthorized)
                follower.apply(.authorization(status))
            },
            proxy.observe(.location) { location in
                if !location.isStale { coordinateRelay.accept(location.coordinate) }
            },
            proxy.observe(.didChangeReceiverStatus) { follower.apply(.receiver($0)) },
            proxy.observe(.didUpdateLocations) { locations in
                if let last = locations.last { follower.apply(.location(last)) }
            },
        ]

        switch level {
        case .whenInUse: manager.requestWhenInUseAuthorization()
        case .always: manager.requestAlwaysAuthorization()
        }
        manager.startUpdatingLocation()
        manager.startUpdatingHeading()
    }

    /// Stops updates; the drivers keep their latest values.
    public func stop() {
        manager.stopUpdatingLocation()
        manager.stopUpdatingHeading()
    }
}

/// The status reducer behind ``GeolocationService/status``: each input is applied on the main
/// actor, as the manager calls its delegate, and a changed status accepted into the relay, so the
/// driver never repeats a status.
@MainActor
final class StatusFollower {
    private var reducer: ServiceStatusReducer
    private let relay: DriverRelay<ServiceStatus>

    init(_ reducer: ServiceStatusReducer, relay: DriverRelay<ServiceStatus>) {
        self.reducer = reducer
        self.relay = relay
    }

    func apply(_ input: ServiceStatusReducer.Input) {
        reducer.apply(input)
        relay.acceptIfChanged(reducer.status)
    }
}
