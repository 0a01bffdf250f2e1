import GPSD
import GPSReports
import GeoTrackService
import LocationKit
import Logging
import Reactive
import Synchronization

/// `watch`'s adapter from GeolocationService's Drivers (and the manager's delegate streams) to
/// tracker updates: the status Driver (with the heading Driver's latest value) drives the status line, delivered locations
/// feed JSON, GPX and `--count`, regions, visits and reconnections become event lines.
@MainActor
package final class WatchSession {
    /// The manager behind the service.
    package let manager: LocationManager
    /// The service whose Drivers the status line renders.
    package let service: GeolocationService
    /// The updates, until ``stop()``.
    package let updates: AsyncStream<TrackerUpdate>
    private let continuation: AsyncStream<TrackerUpdate>.Continuation
    private var tasks: [Task<Void, Never>] = []

    /// Starts the manager and the service on gpsd.
    /// - Parameter deliversLocations: whether every location is needed (JSON, GPX, `--count`);
    ///   the status line alone needs only the Drivers, and each subscription costs CPU per fix.
    package init(settings: Settings, store: AuthorizationStore, failOnDisconnect: Bool, deliversLocations: Bool,
                 logger: Logger) {
        let manager = LocationManager(gpsd: LocationSources.gpsdConfiguration(settings: settings),
                                      authorizationStore: store, logger: logger)
        manager.distanceFilter = settings.distanceFilter > 0 ? settings.distanceFilter : LocationManager.distanceFilterNone
        manager.desiredAccuracy = settings.desiredAccuracy > 0 ? settings.desiredAccuracy : LocationAccuracy.best
        for region in settings.regions {
            if let center = Coordinate(latitude: region.latitude, longitude: region.longitude) {
                manager.startMonitoring(for: CircularRegion(center: center, radius: region.radius, identifier: region.name))
            }
        }
        manager.startMonitoringVisits()
        self.manager = manager
        let (updates, continuation) = AsyncStream.makeStream(of: TrackerUpdate.self, bufferingPolicy: .unbounded)
        self.updates = updates
        self.continuation = continuation
        // Subscribe to the delegate streams before the service starts the manager, so nothing is missed.
        let rx = manager.rx
        // A stream subscribes when read: only read the one for every location when it is consumed.
        let locations = deliversLocations ? rx.didUpdateLocations : nil
        let receiver = rx.receiverStatus
        let entries = rx.didEnterRegion
        let exits = rx.didExitRegion
        let visits = rx.didVisit
        self.service = GeolocationService(manager: manager)
        let reducer = LockedReducer(WatchReducer(sourceName: "gpsd at \(settings.gpsdHost):\(settings.gpsdPort)",
                                                 failOnDisconnect: failOnDisconnect),
                                    output: continuation)
        tasks = Self.consume(reducer, status: service.status.subscribe(), heading: service.heading,
                             locations: locations, receiver: receiver, entries: entries, exits: exits, visits: visits)
    }

    /// Reads every stream on the global pool: a task on the main actor would wake the main
    /// queue once per stream and fix, which cost more CPU than everything else `watch` does.
    private nonisolated static func consume(
        _ reducer: LockedReducer, status: EventStream<ServiceStatus>, heading: Driver<Heading>,
        locations: EventStream<[Location]>?, receiver: EventStream<ReceiverStatus>, entries: EventStream<CircularRegion>,
        exits: EventStream<CircularRegion>, visits: EventStream<Visit>
    ) -> [Task<Void, Never>] {
        var tasks = [
            // The heading Driver is fed on the main actor while the manager handles a fix, so by
            // the time the status for that fix is read here its latest value is (almost always)
            // that fix's heading; a late one is simply not shown (see WatchReducer). Reading it
            // instead of following it saves waking a task per fix.
            Task { for await value in status { reducer.apply(.status(value, heading: heading.latest)) } },
            Task { for await value in receiver { reducer.apply(.receiver(value.sourceState)) } },
            Task { for await region in entries { reducer.apply(.regionEntered(region.identifier)) } },
            Task { for await region in exits { reducer.apply(.regionExited(region.identifier)) } },
            Task { for await visit in visits { reducer.apply(.visit(visit)) } },
        ]
        if let locations {
            tasks.append(Task { for await batch in locations { for location in batch { reducer.apply(.location(location)) } } })
        }
        return tasks
    }

    /// Stops updates and ends the stream.
    package func stop() {
        for task in tasks { task.cancel() }
        tasks.removeAll()
        service.stop()
        continuation.finish()
    }
}

/// A ``WatchReducer`` shared by the tasks that read the streams: each input is reduced and its
/// updates yielded under one lock, so the updates keep the order in which inputs were reduced.
final class LockedReducer: Sendable {
    private let state: Mutex<WatchReducer>
    private let output: AsyncStream<TrackerUpdate>.Continuation

    init(_ reducer: WatchReducer, output: AsyncStream<TrackerUpdate>.Continuation) {
        state = Mutex(reducer)
        self.output = output
    }

    func apply(_ input: WatchReducer.Input) {
        state.withLock { reducer in
            // Yielding to an AsyncStream only enqueues; it never calls back into this lock.
            for update in reducer.reduce(input) { output.yield(update) }
        }
    }
}
