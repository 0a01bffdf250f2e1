import AsyncAlgorithms
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

    /// Creates the service, requests authorization and starts updates.
    ///
    /// - Parameter level: the access to ask for when undecided.
    public init(manager: LocationManager, requesting level: AuthorizationLevel = .whenInUse) {
        self.manager = manager
        let rx = manager.rx
        authorized = Driver(rx.authorizationStatus.map { $0.isAuthorized }.removeDuplicates())
        location = Driver(rx.location.filter { !$0.isStale }.map(\.coordinate))
        latestLocation = Driver(rx.location)
        heading = Driver(rx.heading)

        let reducer = ServiceStatusReducer(authorization: manager.authorizationStatus, receiver: manager.receiverStatus,
                                           location: manager.location)
        let inputs = merge(
            rx.authorizationStatus.map { ServiceStatusReducer.Input.authorization($0) },
            rx.receiverStatus.map { ServiceStatusReducer.Input.receiver($0) },
            rx.didUpdateLocations.compactMap { $0.last.map { ServiceStatusReducer.Input.location($0) } }
        )
        status = Driver(
            inputs
                .reductions(into: reducer) { state, input in state.apply(input) }
                .map(\.status)
                .removeDuplicates()
        )

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
