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
    private var statusObservation: Observation?
    private var receiverObservation: Observation?

    /// Starts the manager and the service on gpsd.
    /// - Parameter deliversLocations: whether every location is needed (JSON, GPX, `--count`);
    ///   the status line alone needs only the Drivers, and each subscription costs CPU per fix.
    /// - Parameter display: where the status line and event lines go, straight from the Drivers'
    ///   observers; without one they are updates like the rest.
    package init(settings: Settings, store: AuthorizationStore, failOnDisconnect: Bool, deliversLocations: Bool,
                 display: StatusDisplay? = nil, logger: Logger) {
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
        let entries = rx.didEnterRegion
        let exits = rx.didExitRegion
        let visits = rx.didVisit
        let reducer = LockedReducer(WatchReducer(sourceName: "gpsd at \(settings.gpsdHost):\(settings.gpsdPort)",
                                                 failOnDisconnect: failOnDisconnect),
                                    output: continuation, display: display)
        // Observed before the service exists, so that for each change the reducer hears of the
        // connection (and its error) before the status that the service derives from it.
        receiverObservation = rx.delegate.observe(.didChangeReceiverStatus) { status in
            reducer.apply(.receiver(status.sourceState))
        }
        self.service = GeolocationService(manager: manager)
        // The status Driver is fed on the main actor as the manager calls its delegate; observing
        // it synchronously costs no task and no wake-up per fix. The heading Driver is read, not
        // followed: the manager reports a fix's heading after its location, so the value read
        // here may be the previous fix's, and WatchReducer then shows the course if moving.
        let heading = service.heading
        statusObservation = service.status.observe { status in
            reducer.apply(.status(status, heading: heading.latest))
        }
        tasks = Self.consume(reducer, locations: locations, entries: entries, exits: exits, visits: visits)
    }

    /// Reads the other streams on the global pool: a task on the main actor would wake the main
    /// queue's thread once per event.
    private nonisolated static func consume(
        _ reducer: LockedReducer, locations: EventStream<[Location]>?, entries: EventStream<CircularRegion>,
        exits: EventStream<CircularRegion>, visits: EventStream<Visit>
    ) -> [Task<Void, Never>] {
        var tasks = [
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
        statusObservation?.cancel()
        statusObservation = nil
        receiverObservation?.cancel()
        receiverObservation = nil
        for task in tasks { task.cancel() }
        tasks.removeAll()
        service.stop()
        continuation.finish()
    }
}

/// A ``WatchReducer`` shared by the observers and tasks that read the Drivers and streams: each
/// input is reduced and its updates handed on under one lock, so they keep the order in which
/// the inputs were reduced.
///
/// With a display, the status line and event lines are drawn right here: most inputs arrive on
/// the main actor as the manager handles a fix, and handing them to another task would wake a
/// thread per fix for a one-line write. Locations (JSON, GPX, `--count`) and failures, which
/// decide when the run ends, go to the tracker loop as updates.
final class LockedReducer: Sendable {
    private let state: Mutex<WatchReducer>
    private let output: AsyncStream<TrackerUpdate>.Continuation
    private let display: StatusDisplay?

    init(_ reducer: WatchReducer, output: AsyncStream<TrackerUpdate>.Continuation, display: StatusDisplay?) {
        state = Mutex(reducer)
        self.output = output
        self.display = display
    }

    func apply(_ input: WatchReducer.Input) {
        state.withLock { reducer in
            // Neither the display nor the stream ever calls back into this lock.
            for update in reducer.reduce(input) {
                switch (update, display) {
                case (.status(let status), let display?): display.show(status)
                case (.event(let event), let display?): display.event(event)
                default: output.yield(update)
                }
            }
        }
    }
}
