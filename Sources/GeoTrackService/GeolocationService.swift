import AsyncAlgorithms
import GPSReports
import LocationKit
import Reactive
import Synchronization

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
    /// The tasks that feed ``status``; they end with the manager's streams, or with the service.
    private let statusInputs: [Task<Void, Never>]

    /// Creates the service, requests authorization and starts updates.
    ///
    /// - Parameter level: the access to ask for when undecided.
    public init(manager: LocationManager, requesting level: AuthorizationLevel = .whenInUse) {
        self.manager = manager
        let rx = manager.rx
        authorized = Driver(rx.authorizationStatus.map { $0.isAuthorized }.removeDuplicates())
        location = Driver(rx.location.filter { !$0.isStale }.map(\.coordinate))
        latestLocation = Driver(rx.location)
        heading = rx.headingDriver

        let reducer = ServiceStatusReducer(authorization: manager.authorizationStatus, receiver: manager.receiverStatus,
                                           location: manager.location)
        let relay = DriverRelay(reducer.status)
        status = relay.driver
        statusInputs = Self.follow(rx.authorizationStatus, rx.receiverStatus, rx.didUpdateLocations,
                                   into: LockedStatusReducer(reducer, relay: relay))

        switch level {
        case .whenInUse: manager.requestWhenInUseAuthorization()
        case .always: manager.requestAlwaysAuthorization()
        }
        manager.startUpdatingLocation()
        manager.startUpdatingHeading()
    }

    /// Reads the three inputs of ``status`` on the global pool and reduces them under one lock.
    ///
    /// This replaces `merge(...).reductions(...)`: merging spawns a task per input and hands
    /// every element through a second one, and on a live gpsd feed those hops were the larger
    /// part of the service's CPU time. Here each element takes one hop, from the manager to
    /// its reader.
    private nonisolated static func follow(
        _ authorization: EventStream<AuthorizationStatus>, _ receiver: EventStream<ReceiverStatus>,
        _ locations: EventStream<[Location]>, into reducer: LockedStatusReducer
    ) -> [Task<Void, Never>] {
        [
            Task { for await status in authorization { reducer.apply(.authorization(status)) } },
            Task { for await status in receiver { reducer.apply(.receiver(status)) } },
            Task {
                for await batch in locations {
                    if let last = batch.last { reducer.apply(.location(last)) }
                }
            },
        ]
    }

    deinit {
        for task in statusInputs { task.cancel() }
    }

    /// Stops updates; the drivers keep their latest values.
    public func stop() {
        manager.stopUpdatingLocation()
        manager.stopUpdatingHeading()
    }
}

/// The status reducer shared by the tasks that feed it: each input is applied, and a changed
/// status accepted into the relay, under one lock, so the driver sees inputs in the order they
/// were reduced and never the same status twice in a row.
final class LockedStatusReducer: Sendable {
    private let state: Mutex<ServiceStatusReducer>
    private let relay: DriverRelay<ServiceStatus>

    init(_ reducer: ServiceStatusReducer, relay: DriverRelay<ServiceStatus>) {
        state = Mutex(reducer)
        self.relay = relay
    }

    func apply(_ input: ServiceStatusReducer.Input) {
        state.withLock { reducer in
            let before = reducer.status
            reducer.apply(input)
            let after = reducer.status
            // Accepting only enqueues for the consumers; it never calls back into this lock.
            if after != before { relay.accept(after) }
        }
    }
}
