import FoundationEssentials
import GPSReports
import LocationKit
import GeoTrackReactive
#if canImport(Glibc)
import Glibc
#endif

/// What a `LocationManager` means for the person watching: the one place that decides the
/// status, the heading to show and the events, for every output.
///
/// Like RxSwift's GeolocationService example, it offers `Driver`s (``authorized``,
/// ``location``, ``latestLocation``, ``heading``, ``status``) that never fail and replay their
/// latest value. Each keeps up to the manager proxy's `bufferLimit` values waiting for a
/// consumer; a consumer that falls further behind loses the oldest (`Driver.droppedCount`), as
/// a driver is for showing the current value. For outputs that record or print everything
/// (event lines, JSON, GPX, a publisher) it also gives one ordered sequence of
/// ``TrackingUpdate``s: ``observe(_:)`` synchronously, or ``updates()`` as a stream, which a
/// replay waits for, so that nothing is lost. Outputs draw what they are given; none derives
/// a status, a heading or an event of its own.
///
/// Everything happens on the main actor, as the manager calls its delegate: the service
/// observes the manager's delegate proxy, so the user's own delegate keeps its callbacks.
@MainActor
public final class GeolocationService {
    /// The manager the service drives.
    public let manager: LocationManager
    /// Whether location access is granted: the current answer, then each change.
    public let authorized: Driver<Bool>
    /// The current position: never a stale one. When the position stops holding (the source
    /// went quiet or away, the fix was lost, access was withdrawn), a later consumer gets nothing
    /// until the next fix.
    public let location: Driver<Coordinate>
    /// The latest delivered location, with its accuracy, altitude, speed and the report it came
    /// from; forgotten (for later consumers) when location access is withdrawn.
    public let latestLocation: Driver<Location>
    /// The latest heading, as the manager delivered it.
    public let heading: Driver<Heading>
    /// What the user is shown: waiting for access, unreachable gpsd, searching, a fix, stale...
    public let status: Driver<TrackingStatus>

    private let level: AuthorizationLevel
    private let now: @Sendable () -> Date
    private let statusRelay: DriverRelay<TrackingStatus>
    private let coordinateRelay: DriverRelay<Coordinate>
    private let outlet = Broadcaster<TrackingUpdate>(bufferLimit: 1024)
    private var reducer: TrackingReducer
    /// The last location handed to the outputs: a later report of its fix time completes from it.
    private var lastSent: Location?
    /// The last location handed to the outputs with a velocity the receiver measured.
    private var lastMeasured: Location?
    /// The last location handed to the outputs with a height.
    private var lastHeight: Location?
    private var observations: [ObservationToken] = []

    /// Creates the service over `manager`.
    ///
    /// - Parameters:
    ///   - manager: the location manager whose delegate proxy the service observes.
    ///   - level: the access to ask for when undecided.
    ///   - startsUpdates: whether to request authorization and start updates now (the default);
    ///     pass `false` to attach observers first, then call ``start()``.
    ///   - now: the clock that dates events no fix dates (connections, access changes).
    public init(manager: LocationManager, requesting level: AuthorizationLevel = .whenInUse,
                startsUpdates: Bool = true, now: @escaping @Sendable () -> Date = { Date() }) {
        self.manager = manager
        self.level = level
        self.now = now
        let rx = manager.rx
        let proxy = rx.delegate
        // The drivers buffer what the proxy's streams do: a replay hands over up to half of that
        // in one turn of the main actor, which a consumer that keeps up then takes whole.
        let bufferLimit = proxy.bufferLimit
        let authorizedRelay = DriverRelay(manager.authorizationStatus.isAuthorized, bufferLimit: bufferLimit)
        authorized = authorizedRelay.driver
        let coordinateRelay = DriverRelay(manager.location.flatMap { $0.isStale ? nil : $0.coordinate }, bufferLimit: bufferLimit)
        self.coordinateRelay = coordinateRelay
        location = coordinateRelay.driver
        latestLocation = proxy.driver(.location, startingWith: manager.location)
        heading = rx.headingDriver
        reducer = TrackingReducer(authorization: manager.authorizationStatus, receiver: manager.receiverStatus,
                                  location: manager.location, policyPath: manager.authorizationStore.policyPath)
        statusRelay = DriverRelay(reducer.status, bufferLimit: bufferLimit)
        status = statusRelay.driver

        // Every input is observed synchronously, as the manager calls its delegate: no task and
        // no thread wake-up per fix, and the updates keep the order the manager reported in.
        // `weak`: the deinit that cancels these is isolated, so when the last reference goes
        // away off the main actor, a delegate call may still come before it runs.
        observations = [
            proxy.observe(.didChangeAuthorization) { [weak self] status in
                guard let self else { return }
                // Access reduced at run time: what the drivers hold from before is snapped too
                // (the manager has snapped its own, and `latestLocation`, already).
                if manager.accuracyAuthorization == .reducedAccuracy { reduceAccuracy(of: coordinateRelay) }
                // Withdrawn: no later consumer is handed the position the app may no longer see.
                if !status.isAuthorized { proxy.clearDriver(.location) }
                authorizedRelay.acceptIfChanged(status.isAuthorized)
                apply(.authorization(status))
            },
            proxy.observe(.didChangeReceiverStatus) { [weak self] status in self?.apply(.receiver(status)) },
            proxy.observe(.didReceiveReport) { [weak self] report in self?.outlet.send(.report(report)) },
            proxy.observe(.didUpdateHeading) { [weak self] heading in
                guard let self else { return }
                // A course heading belongs to the fix whose location follows it; only a sensor's
                // reading changes what is shown between fixes.
                guard case .sensor = heading.source, let current = reducer.location else { return }
                apply(.heading(shownHeading(for: current)))
            },
            proxy.observe(.didUpdateLocations) { [weak self] locations in
                guard let self else { return }
                for delivered in locations {
                    if !delivered.isStale { coordinateRelay.accept(delivered.coordinate) }
                    let location = shownLocation(for: delivered)
                    lastSent = location
                    if location.reportedSpeed != nil { lastMeasured = location }
                    if location.hasHeight { lastHeight = location }
                    let displayed = displayedLocation(for: location)
                    // The status first: an output that stops at this location has drawn it.
                    apply(.location(displayed, heading: shownHeading(for: displayed)))
                    outlet.send(.location(location))
                }
            },
            proxy.observe(.didEnterRegion) { [weak self] region in
                guard let self else { return }
                send(.regionEntered(region.identifier), at: fixTime, location: crossingFix)
            },
            proxy.observe(.didExitRegion) { [weak self] region in
                guard let self else { return }
                send(.regionExited(region.identifier), at: fixTime, location: crossingFix)
            },
            proxy.observe(.didVisit) { [weak self] visit in
                guard let self else { return }
                if let departure = visit.departureDate {
                    send(.visitEnded(visit), at: departure)
                } else {
                    send(.visitStarted(visit), at: visit.arrivalDate)
                }
            },
        ]
        if startsUpdates { start() }
    }

    /// Requests authorization (through the manager's prompter, if any) and starts location and
    /// heading updates.
    public func start() {
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

    /// Calls `observer` synchronously on the main actor with the current status, then with every
    /// update as it happens, until the returned `ObservationToken` is cancelled or released.
    public func observe(_ observer: @escaping @MainActor (TrackingUpdate) -> Void) -> ObservationToken {
        observer(.status(currentStatus))
        return outlet.observe { update in
            // The service sends only on the main actor.
            MainActor.assumeIsolated { observer(update) }
        }
    }

    /// The current status, then every update, as a stream (see `Broadcaster` for its buffering).
    public func updates() -> EventStream<TrackingUpdate> {
        outlet.subscribe(startingWith: .status(currentStatus))
    }

    /// The status the outputs were last told.
    public var currentStatus: TrackingStatus { statusRelay.value ?? reducer.status }

    /// The heading that describes `location`: a heading sensor's reading that the manager still
    /// considers current at the fix's time, else the course of that very location while moving
    /// (`LocationManager.courseHeading(for:)`), whatever the manager's heading filter let
    /// through to its delegate. An older heading is not shown, so a receiver that stopped does
    /// not keep showing the course it last had.
    public func shownHeading(for location: Location) -> Heading? {
        // The sensor's last reading counts, not the last heading delivered: a steady heading
        // within the manager's headingFilter of the one delivered is delivered no more, and
        // would otherwise look stale after the sensor validity while the sensor still reports it.
        if let heading = manager.heading, case .sensor = heading.source, let reported = manager.lastSensorHeadingTime,
           manager.isCurrent(reported, at: location.timestamp) {
            return heading
        }
        return manager.courseHeading(for: location)
    }

    /// The location the outputs are given for `location`: a report of the same cycle (the same
    /// fix time) as the last one sent, which lacks the velocity the receiver measured, does not
    /// erase it (`Location.completed(from:)`); so the status line, the sky view, the
    /// statistics and the publisher all have the cycle's values, whether the receiver sends one
    /// report per cycle or two.
    public func shownLocation(for location: Location) -> Location {
        guard let last = lastSent, !last.isStale else { return location }
        return location.completed(from: last)
    }

    /// The location the status shows for `location`, one the outputs were given: when its only
    /// speed is one gpsd derived between positions (no course), and the receiver measured a
    /// velocity for an earlier fix that the manager still considers current (a sensor
    /// reading's 5 s), the status keeps that velocity. A receiver whose cycle starts with a GGA
    /// (gpsd's derived speed) and ends with an RMC (the receiver's own) would otherwise show
    /// 41.2 km/h and 0.0 km/h in turn, and its heading would come and go. The same rule keeps
    /// the height: a 3D location without one, after an earlier location with one that is still
    /// current, shows that height, its error and its climb (`Location.withHeight(of:)`); a
    /// receiver whose cycle ends with a report without a height (garmin48's GLL) would otherwise
    /// show its altitude and climb, then `-`, in turn. A height stops showing only once the
    /// receiver has given none for that long, or has no 3D fix. The outputs in gpsd's
    /// format, the statistics and the publisher still get the location as it was sent.
    public func displayedLocation(for location: Location) -> Location {
        var shown = location
        if location.course == nil, location.speed != nil, let measured = lastMeasured, isCurrent(measured, at: location) {
            shown = shown.withVelocity(of: measured)
        }
        if location.gnss.fixMode == .threeD, !location.hasHeight, let height = lastHeight, isCurrent(height, at: location) {
            shown = shown.withHeight(of: height)
        }
        return shown
    }

    /// Whether `earlier`, a location sent before, may still stand in for what `location` lacks:
    /// neither is stale, it is older, and the manager still considers it current at `location`'s time.
    private func isCurrent(_ earlier: Location, at location: Location) -> Bool {
        !location.isStale && !earlier.isStale && earlier.timestamp < location.timestamp
            && manager.isCurrent(earlier.timestamp, at: location.timestamp)
    }

    /// The fix that caused a region event, as outputs may see it: the manager keeps it as the
    /// receiver gave it, so under approximate access it is snapped here.
    private var crossingFix: Location? {
        guard let fix = manager.latestReceivedLocation else { return nil }
        return manager.accuracyAuthorization == .reducedAccuracy ? ApproximateLocation.reduce(fix) : fix
    }

    /// The time of the fix that caused a region event: the manager decides regions on it.
    private var fixTime: Date { manager.latestReceivedLocation?.timestamp ?? now() }

    private func apply(_ input: TrackingReducer.Input) {
        for notice in reducer.apply(input) {
            switch notice {
            case .disconnected(let error): send(.disconnected(error), at: now())
            case .reconnected: send(.reconnected, at: now())
            case .authorizationChanged(let status): send(.authorizationChanged(status), at: now())
            case .otherReceiver(let other, let followed): send(.otherReceiver(other, following: followed), at: now())
            }
        }
        let status = reducer.status
        guard status != statusRelay.value else { return }
        if !status.holdsPosition { coordinateRelay.clear() }
        statusRelay.accept(status)
        outlet.send(.status(status))
    }

    /// Snaps the position and the status's location to the grid of approximate locations, and
    /// forgets the precise velocities the next reports would otherwise be completed from.
    private func reduceAccuracy(of coordinates: DriverRelay<Coordinate>) {
        if let coordinate = coordinates.value, !ApproximateLocation.isOnGrid(coordinate) {
            coordinates.accept(ApproximateLocation.snap(coordinate))
        }
        reducer.reduceAccuracy()
        // A precise report's speed and course must not complete or steady an approximate one.
        lastSent = nil
        lastMeasured = nil
        lastHeight = nil
        let status = reducer.status
        guard status != statusRelay.value else { return }
        statusRelay.accept(status)
        outlet.send(.status(status))
    }

    private func send(_ kind: TrackingEvent.Kind, at time: Date, location: Location? = nil) {
        outlet.send(.event(TrackingEvent(kind, at: time, location: location)))
    }

    isolated deinit {
        for observation in observations { observation.cancel() }
        outlet.finish()
    }
}
