import GPSD
import GPSReports
import GeoTrackService
import LocationKit
import Logging
import Reactive
import Synchronization

/// `watch`'s adapter from GeolocationService's Drivers (and the manager's delegate callbacks) to
/// tracker updates: the status Driver (with the heading Driver's latest value) drives the status
/// line, delivered locations feed JSON, GPX and `--count`, regions, visits and reconnections
/// become event lines.
///
/// Every input is observed synchronously, on the main actor, as the manager calls its delegate:
/// no task and no thread wake-up per fix, and the inputs reach the reducer in the order the
/// manager reported them.
@MainActor
package final class WatchSession {
    /// The manager behind the service.
    package let manager: LocationManager
    /// The service whose Drivers the status line renders.
    package let service: GeolocationService
    /// The updates, until ``stop()``.
    package let updates: AsyncStream<TrackerUpdate>
    private let continuation: AsyncStream<TrackerUpdate>.Continuation
    private var observations: [Observation] = []

    /// Starts the manager and the service on gpsd.
    /// - Parameter deliversLocations: whether every location is needed (JSON, GPX, `--count`);
    ///   the status line alone needs only the Drivers.
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
        let reducer = LockedReducer(WatchReducer(sourceName: "gpsd at \(settings.gpsdHost):\(settings.gpsdPort)",
                                                 failOnDisconnect: failOnDisconnect),
                                    output: continuation, display: display)
        // Observed before the service exists (and so before it starts the manager): nothing is
        // missed, and for each change the reducer hears of the connection (and its error) before
        // the status that the service derives from it.
        let proxy = manager.rx.delegate
        observations = [
            proxy.observe(.didChangeReceiverStatus) { reducer.apply(.receiver($0.sourceState)) },
            proxy.observe(.didEnterRegion) { reducer.apply(.regionEntered($0.identifier)) },
            proxy.observe(.didExitRegion) { reducer.apply(.regionExited($0.identifier)) },
            proxy.observe(.didVisit) { reducer.apply(.visit($0)) },
        ]
        if deliversLocations {
            observations.append(proxy.observe(.didUpdateLocations) { batch in
                for location in batch { reducer.apply(.location(location)) }
            })
        }
        self.service = GeolocationService(manager: manager)
        // The heading Driver is read, not followed: the manager reports a fix's heading after its
        // location, so the value read here may be the previous fix's, and WatchReducer then shows
        // the course if moving.
        let heading = service.heading
        observations.append(service.status.observe { status in
            reducer.apply(.status(status, heading: heading.latest))
        })
    }

    /// Stops updates and ends the stream.
    package func stop() {
        for observation in observations { observation.cancel() }
        observations.removeAll()
        service.stop()
        continuation.finish()
    }
}

/// A ``WatchReducer`` shared by the observers of the Drivers and callbacks: each input is
/// reduced and its updates handed on under one lock, so they keep the order in which the inputs
/// were reduced.
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
