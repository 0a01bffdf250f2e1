import GPSD
import GPSReports
import GeoTrackService
import LocationKit
import Logging

/// gpsd as a LocationKit source (a wrapper, so the CLI does not claim the conformance for the library).
struct GPSDSource: LocationSource {
    let client: GPSDClient
    func events() -> AsyncStream<SourceEvent> { client.events() }
}

/// `watch`'s adapter from GeolocationService's Drivers (and the manager's delegate streams) to
/// tracker updates: the status Driver drives the status line, delivered locations feed JSON,
/// GPX and `--count`, regions, visits and reconnections become event lines.
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
    private var lastSummary: FixSummary?
    private var connectionLost = false
    private var lastError: String?

    /// Starts the manager and the service on gpsd.
    /// - Parameter deliversLocations: whether every location is needed (JSON, GPX, `--count`);
    ///   the status line alone needs only the status Driver, and each subscription costs CPU per fix.
    package init(settings: Settings, store: AuthorizationStore, failOnDisconnect: Bool, deliversLocations: Bool,
                 logger: Logger) {
        let client = LocationSources.gpsdClient(settings: settings, logger: logger)
        let manager = LocationManager(source: GPSDSource(client: client), authorizationStore: store, logger: logger)
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
        let source = "gpsd at \(settings.gpsdHost):\(settings.gpsdPort)"
        tasks.append(Task { [weak self, service] in
            for await status in service.status {
                guard let self else { return }
                self.continuation.yield(.status(self.state(for: status, source: source)))
            }
        })
        if let locations {
            tasks.append(Task { [weak self] in
                for await batch in locations {
                    guard let self else { return }
                    for location in batch {
                        self.continuation.yield(.location(self.summary(location)))
                    }
                }
            })
        }
        tasks.append(Task { [weak self] in
            for await status in receiver {
                guard let self else { return }
                self.receiverChanged(status.sourceState, source: source, failOnDisconnect: failOnDisconnect)
            }
        })
        tasks.append(Task { [continuation] in
            for await region in entries { continuation.yield(.event(.regionEntered(region.identifier))) }
        })
        tasks.append(Task { [continuation] in
            for await region in exits { continuation.yield(.event(.regionExited(region.identifier))) }
        })
        tasks.append(Task { [continuation] in
            for await visit in visits {
                continuation.yield(.event(visit.departureDate == nil ? .visitStarted(visit.coordinate) : .visitEnded(visit.coordinate)))
            }
        })
    }

    /// Stops updates and ends the stream.
    package func stop() {
        for task in tasks { task.cancel() }
        tasks.removeAll()
        service.stop()
        continuation.finish()
    }

    func summary(_ location: Location) -> FixSummary {
        // The service's heading Driver follows the manager; reading the manager here saves a subscription.
        let summary = FixSummary(fix: Fix(location: location), satellitesUsed: location.gnss.satellitesUsed,
                                 heading: manager.heading?.bestHeading)
        lastSummary = summary
        return summary
    }

    func state(for status: ServiceStatus, source: String) -> StatusState {
        switch status {
        case .waitingForAuthorization: return .waitingForAuthorization
        case .denied: return .denied
        case .gpsdUnreachable(let retryingIn): return .gpsdUnreachable(reason: lastError ?? source, retryingIn: retryingIn)
        case .noReceiver: return .noReceiver
        case .searching(let seen, let used): return .searching(seen: seen, used: used)
        case .fix(_, let location): return .fix(summary(location))
        case .stale:
            if let lastSummary { return .stale(lastSummary) }
            return .searching(seen: 0, used: 0)
        }
    }

    func receiverChanged(_ state: SourceState?, source: String, failOnDisconnect: Bool) {
        switch state {
        case .disconnected(let error)?:
            lastError = error.message
            if failOnDisconnect {
                continuation.yield(.failed(CLIError(error)))
                return
            }
            if !connectionLost {
                connectionLost = true
                continuation.yield(.event(.disconnected(error.message)))
            }
        case .connected?, .receiverPresent?:
            if connectionLost {
                connectionLost = false
                continuation.yield(.event(.reconnected(source)))
            }
        default:
            break
        }
    }
}
