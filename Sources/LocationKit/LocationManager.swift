import FoundationEssentials
import GPSReports
import Logging
import GeoTrackReactive
#if canImport(Glibc)
import Glibc
#endif

/// Delivers locations, headings, region events and visits from a GPS receiver,
/// like CoreLocation's `CLLocationManager`.
///
/// **Isolation.** `LocationManager` is `@MainActor`: create and configure it on the main
/// actor, and every delegate callback and `manager.rx` stream event is produced there —
/// which is what delegate code expects. Reports are read from the `LocationSource` by a
/// source session that hands each event to the main actor (`LocationSource.startSession(deliveringTo:)`);
/// nothing blocks the main actor while waiting.
///
/// **Authorization.** Nothing is delivered until the user allowed location use (see
/// ``AuthorizationStore``). Starting a service while access is denied or restricted
/// reports ``LocationError/denied`` or ``LocationError/restricted(policyPath:)`` through
/// ``LocationManagerDelegate/locationManager(_:didFailWithError:)``; while undecided the
/// service waits for the decision.
///
/// **A consumer slower than the source.** A source that can wait (a `Replay`, any
/// `PulledLocationSource`) is read one event at a time, and the next is read only once every
/// buffering consumer (each ``LocationUpdate/liveUpdates(_:from:)`` loop, each stream under
/// `manager.rx`) has room: a replay goes at the pace of its slowest consumer and none of them
/// loses a location. A loop that keeps a stream but stops reading it therefore holds the replay
/// up; end it (`break`, or cancel its task) when done. A live source (gpsd) cannot wait: each
/// consumer buffers a bounded number of events, and drops beyond that are counted
/// (``LocationUpdate/droppedUpdates``, `rx.delegate.droppedEventCount`). The delegate is called
/// synchronously and is never behind.
///
/// **Time.** Timeouts (``requestLocation()``) run on the injected clock. Dwell times
/// (visits, automatic pausing, `isStationary`) are measured on the fixes' timestamps, so a replayed track
/// behaves the same at any replay speed.
///
/// **Lifetime.** The manager stops its source and finishes every `manager.rx` stream when
/// it is deallocated. Nothing it starts keeps it alive.
@MainActor
public final class LocationManager: HasDelegateSlot, ReactiveCompatible {
    // MARK: Configuration

    /// `distanceFilter` value meaning every location is delivered.
    public static let distanceFilterNone: Double = -1
    /// `headingFilter` value meaning every heading is delivered.
    public static let headingFilterNone: Double = -1

    /// Where delegate callbacks go; held weakly. Setting it after `rx` streams were
    /// subscribed keeps the streams working: the new delegate is called first, then the streams.
    public var delegate: (any LocationManagerDelegate)? {
        get { delegateSlot.delegate }
        set { delegateSlot.delegate = newValue }
    }

    /// The delegate and the installed ``LocationManagerDelegateProxy``; see ``delegate``.
    public let delegateSlot = DelegateSlot<any LocationManagerDelegate>()

    /// The minimum distance in metres the device must move before a new location is delivered;
    /// ``distanceFilterNone`` (the default) delivers every location.
    public var distanceFilter: Double = LocationManager.distanceFilterNone

    /// The accuracy the app would like, in metres (see ``LocationAccuracy``): a hint, as in
    /// CoreLocation. A receiver's accuracy is what the sky allows, so this drops no update; it
    /// decides when ``requestLocation()`` is satisfied: by the first location at least this
    /// accurate, or, when ``requestLocationTimeout`` passes first, by the most accurate one
    /// seen meanwhile. To drop inaccurate updates, use ``accuracyFilter``.
    public var desiredAccuracy: Double = LocationAccuracy.best

    /// ``accuracyFilter``'s value that filters nothing.
    public static let accuracyFilterNone: Double = -1

    /// Continuous updates whose horizontal accuracy is worse than this many metres, or unknown,
    /// are not delivered (regions and visits still see them). ``accuracyFilterNone`` (the
    /// default), zero or less delivers every location. CoreLocation has no such filter; apps
    /// there filter in their delegate, and may keep doing so.
    public var accuracyFilter: Double = LocationManager.accuracyFilterNone

    /// The minimum change in degrees before a new heading is delivered (default 1);
    /// ``headingFilterNone`` delivers every heading.
    public var headingFilter: Double = 1

    /// Course over ground becomes a heading only above this speed, in metres per second
    /// (default 1): below it, the direction of travel is dominated by noise.
    public var minimumSpeedForCourseHeading: Double = 1

    /// How long a heading sensor's reading stays current (default 5 s, on the fixes' clock):
    /// within it, the sensor is preferred to the course over ground.
    public var sensorHeadingValidity: Duration = .seconds(5)

    /// What the device is used for (default ``ActivityType/other``). Setting it sets
    /// ``pauseRadius`` and ``pauseInterval`` to that activity's; ``ActivityType/airborne`` never pauses.
    public var activityType: ActivityType = .other {
        didSet {
            let configuration = activityType.liveConfiguration
            pauseRadius = configuration.stationaryRadius
            pauseInterval = configuration.stationaryInterval
        }
    }

    /// CoreLocation's permission to keep updating in the background. A Linux process has no
    /// background: its updates go on while it runs, whatever this says (default `false`). Kept
    /// so that ported code compiles unchanged.
    public var allowsBackgroundLocationUpdates = false

    /// Whether updates pause while the device stands still (default `false`), reporting
    /// ``LocationManagerDelegate/locationManagerDidPauseLocationUpdates(_:)`` and, once it
    /// moves again or ``startUpdatingLocation()`` restarts them,
    /// ``LocationManagerDelegate/locationManagerDidResumeLocationUpdates(_:)``. Unlike
    /// CoreLocation, which leaves the restart to the app, the manager also resumes by itself
    /// when the device moves: a Linux process is never suspended, and keeps reading the receiver.
    public var pausesLocationUpdatesAutomatically = false

    /// Standing still means staying within this radius in metres (default 25; zero or less never
    /// pauses), each fix allowed its own accuracy, as for ``LocationUpdate/LiveConfiguration/stationaryRadius``...
    public var pauseRadius: Double = 25
    /// ...for this long (default two minutes).
    public var pauseInterval: Duration = .seconds(120)

    /// A visit is a stay within this radius in metres (default 50), decided on fixes more
    /// accurate than the radius; unlike ``pauseRadius``, a fix is not allowed its accuracy on top
    /// (see ``LocationUpdate/LiveConfiguration/stationaryRadius``)...
    public var visitRadius: Double = 50
    /// ...lasting at least this long (default five minutes).
    public var visitDwellTime: Duration = .seconds(300)

    /// How long ``requestLocation()`` waits for a fix before failing (default 15 s).
    public var requestLocationTimeout: Duration = .seconds(15)

    /// The largest region radius that can be monitored, in metres.
    public let maximumRegionMonitoringDistance: Double = 100_000

    // MARK: State

    /// The most recently delivered location, or `nil`; while no location updates run (only
    /// regions, visits, a `liveUpdates` loop), the most recently retrieved one, so that a
    /// region's callback finds where the device is, as in CoreLocation. Its
    /// ``Location/isStale`` turns true when the source goes quiet or its connection is lost, so
    /// a stale position is never presented as current.
    public internal(set) var location: Location?

    /// The most recently delivered heading, or `nil`.
    public internal(set) var heading: Heading?

    /// The latest location the receiver reported, whether or not it was delivered: the distance
    /// and accuracy filters and automatic pauses hold back ``location``, not this. Regions and
    /// visits are decided on it, so during their callbacks it is the location that caused them.
    public internal(set) var latestReceivedLocation: Location?

    /// The regions being monitored.
    public var monitoredRegions: Set<CircularRegion> { Set(regionTrackers.values.map(\.region)) }

    /// Whether the user allowed location use.
    public internal(set) var authorizationStatus: AuthorizationStatus {
        didSet { if authorizationStatus != oldValue { refusalReported = false } }
    }
    /// Whether a start call already reported the refusal in force (``reportIfNotAuthorized(once:)``).
    var refusalReported = false

    /// How precise delivered locations are, like CoreLocation's property of the same name.
    ///
    /// Under ``AccuracyAuthorization/reducedAccuracy`` every fix is made approximate by
    /// ``ApproximateLocation`` as it arrives, before anything sees it. A
    /// ``requestTemporaryFullAccuracyAuthorization(purpose:)`` the user allows lifts it for
    /// this manager's life; a change is reported through
    /// ``LocationManagerDelegate/locationManagerDidChangeAuthorization(_:)``.
    public var accuracyAuthorization: AccuracyAuthorization {
        temporaryFullAccuracy ? .fullAccuracy : storedAccuracy
    }

    /// Whether the source is reachable and has a receiver (gpsd answers and a device reports).
    public internal(set) var locationServicesEnabled = false

    /// The receiver's latest status: source state, satellites, fix mode, staleness.
    public internal(set) var receiverStatus = ReceiverStatus()

    // MARK: Internals

    let source: any LocationSource
    let clock: any Clock<Duration>
    /// Where the user's decision lives (see ``AuthorizationStore``).
    public let authorizationStore: AuthorizationStore
    let prompter: (any AuthorizationPrompter)?
    let logger: Logger

    var updatingLocation = false
    /// Whether the next location is the initial one of a start, which ``distanceFilter`` does not hold back.
    var awaitingInitialLocation = false
    var updatingHeading = false
    var monitoringVisits = false
    var monitoringSignificantChanges = false
    var lastSignificantLocation: Location?
    var oneShot: OneShotRequest?
    var paused = false
    var pauseDetector: DwellDetector?
    var visitDetector: DwellDetector?
    var regionTrackers: [String: RegionTracker] = [:]
    var lastSky: SkyView?
    /// The latest sky view of each receiver that named itself, for a gpsd with several: a fix
    /// takes its satellites and dilutions from its own receiver's, not from whichever came last.
    var skiesByDevice: [String: SkyView] = [:]
    /// When a heading sensor last reported, whether or not ``headingFilter`` let its reading through.
    public internal(set) var lastSensorHeadingTime: Date?
    /// When a sensor that measures true north (not a magnetic compass) last reported.
    var lastTrueNorthHeadingTime: Date?
    var pendingPrompt: Task<Void, Never>?
    /// The accuracy the user's stored (or this run's) decision allows.
    var storedAccuracy: AccuracyAuthorization = .fullAccuracy
    /// Whether the user allowed full accuracy for this manager's life.
    var temporaryFullAccuracy = false
    /// The callers of ``requestAuthorization(_:)`` waiting for the prompt's answer, by request.
    var promptWaiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    var nextRequestID: UInt64 = 0
    /// Running iterations of ``LocationUpdate/liveUpdates(_:from:)``.
    var liveSessions: [UInt64: LiveUpdateSession] = [:]

    /// The source's running session, while one is needed and allowed.
    var session: SourceSession?
    /// The source ended for good (a replay's last line, gpsd without retries): only a service
    /// started anew (a start call, a new request, a new live-updates loop) starts it again, never
    /// the end of one that was waiting, which would play a replay a second time.
    var sourceFinished = false
    /// The source's failure already said to the delegate in this outage: a source that keeps
    /// retrying fails the same way at every attempt, and the delegate hears it once, until a
    /// connection succeeds, the failure changes, or the source is started again.
    var reportedSourceError: SourceError?
    var authorizationWatch: Task<Void, Never>?

    /// Creates a manager reading `source`.
    ///
    /// - Parameters:
    ///   - source: gpsd, a replay, or a scripted source for tests.
    ///   - clock: the clock for timeouts; inject a manual clock in tests.
    ///   - authorizationStore: where the user's decision lives; watched for changes.
    ///   - prompter: asks the user when authorization is requested while undecided; without
    ///     one, requests leave the status undecided and say how to decide (`geotrack auth grant`).
    ///   - logger: where the manager logs; `nil` (the default) logs nothing, as swift-nio and
    ///     async-http-client do without a logger.
    public init(source: some LocationSource, clock: any Clock<Duration> = ContinuousClock(),
                authorizationStore: AuthorizationStore = AuthorizationStore(),
                prompter: (any AuthorizationPrompter)? = nil, logger: Logger? = nil) {
        self.source = source
        self.clock = clock
        self.authorizationStore = authorizationStore
        self.prompter = prompter
        let logger = logger ?? Logger.disabled
        self.logger = logger
        // Watch before reading, so a decision made in between is not missed.
        let changes: AsyncStream<StoredAuthorization>?
        do {
            changes = try authorizationStore.changes()
        } catch {
            logger.warning("authorization changes made outside this process will not be noticed: \(error)")
            changes = nil
        }
        do {
            let stored = try authorizationStore.readAuthorization()
            authorizationStatus = stored.status
            storedAccuracy = stored.accuracy
        } catch {
            logger.error("\(error)")
            authorizationStatus = .notDetermined
        }
        if let changes {
            authorizationWatch = Task { [weak self] in
                for await stored in changes {
                    guard let self else { return }
                    self.applyAuthorization(stored)
                }
            }
        }
        // As CoreLocation does since iOS 14: the delegate hears the status once the manager is
        // made, so code that starts updates from this callback runs. On the main actor's next
        // turn, so a delegate set right after init is there to hear it. The delegate alone:
        // `rx.authorizationStatus` starts with the status already, and `rx.didChangeAuthorization`
        // says changes only.
        Task { @MainActor [weak self] in
            guard let self else { return }
            self.delegate?.locationManagerDidChangeAuthorization(self)
        }
    }

    isolated deinit {
        session?.cancel()
        authorizationWatch?.cancel()
        pendingPrompt?.cancel()
        oneShot?.timeout?.cancel()
        for waiter in oneShot?.waiters.values.map({ $0 }) ?? [] {
            waiter.resume(returning: .failure(CancellationError()))
        }
        for waiter in promptWaiters.values { waiter.resume() }
        for session in liveSessions.values { session.finish() }
    }

    /// Whom to call: the proxy when installed (it forwards to ``delegate``), else ``delegate``.
    var receiver: (any LocationManagerDelegate)? { delegateSlot.receiver }

    // MARK: Location updates

    /// Starts delivering locations to ``LocationManagerDelegate/locationManager(_:didUpdateLocations:)``.
    ///
    /// As in CoreLocation, the first location after a start is delivered whatever
    /// ``distanceFilter`` says, also after a ``stopUpdatingLocation()`` (a new initial event);
    /// calling it again while updates run sends no new initial event. Called while updates are
    /// paused automatically, it restarts them: the delegate hears
    /// ``LocationManagerDelegate/locationManagerDidResumeLocationUpdates(_:)`` and the next
    /// location is an initial one.
    public func startUpdatingLocation() {
        sourceFinished = false
        let resuming = updatingLocation && paused
        if !updatingLocation || resuming { awaitingInitialLocation = true }
        updatingLocation = true
        paused = false
        pauseDetector = nil
        // CoreLocation: "When you restart location services after an automatic pause, Core
        // Location calls this method."
        if resuming { receiver?.locationManagerDidResumeLocationUpdates(self) }
        reportIfNotAuthorized()
        reconcileSource()
    }

    /// Stops delivering locations.
    public func stopUpdatingLocation() {
        updatingLocation = false
        paused = false
        pauseDetector = nil
        reconcileSource()
    }

    /// Starts delivering headings to ``LocationManagerDelegate/locationManager(_:didUpdateHeading:)``.
    public func startUpdatingHeading() {
        sourceFinished = false
        updatingHeading = true
        reportIfNotAuthorized()
        reconcileSource()
    }

    /// Stops delivering headings.
    public func stopUpdatingHeading() {
        updatingHeading = false
        reconcileSource()
    }

    /// Starts reporting arrivals and departures to ``LocationManagerDelegate/locationManager(_:didVisit:)``.
    public func startMonitoringVisits() {
        sourceFinished = false
        monitoringVisits = true
        visitDetector = DwellDetector(radius: visitRadius, dwell: visitDwellTime)
        reportIfNotAuthorized()
        reconcileSource()
    }

    /// Stops reporting visits.
    public func stopMonitoringVisits() {
        monitoringVisits = false
        visitDetector = nil
        reconcileSource()
    }

    /// Whether any service needs the source.
    var needsSource: Bool {
        updatingLocation || updatingHeading || monitoringVisits || oneShot != nil || !regionTrackers.isEmpty
            || !liveSessions.isEmpty || monitoringSignificantChanges
    }

    /// Reports a denial or restriction at once, so a start call is never met with silence.
    ///
    /// Once per refusal for start calls (`once`): an app that starts location and heading
    /// updates together hears "denied" once, not once per service; it hears it again after
    /// access changed or every service stopped. A one-shot request is always answered.
    func reportIfNotAuthorized(once: Bool = true) {
        switch authorizationStatus {
        case .denied, .restricted:
            if once {
                guard !refusalReported else { return }
                refusalReported = true
            }
            report(authorizationStatus == .denied ? .denied : .restricted(policyPath: authorizationStore.policyPath))
        case .notDetermined:
            logger.notice("location access is not decided yet; updates start once it is granted")
        case .authorizedWhenInUse, .authorizedAlways:
            break
        }
    }

    func report(_ error: LocationError) {
        logger.debug("location error: \(error)")
        receiver?.locationManager(self, didFailWithError: error)
    }

    /// Reads a source that can wait (a replay) one event at a time, and before each next event
    /// waits until every buffering consumer has room: no `liveUpdates` loop and no `rx` stream
    /// falls behind a replay far enough to lose a location.
    private func pull(_ source: some PulledLocationSource) -> SourceSession {
        let events = source.events()
        // Weak: a manager nobody else holds goes away, and its deinit cancels this task.
        let task = Task { @MainActor [weak self] in
            for await event in events {
                // Not bound to a name: the manager is not held while the wait below suspends.
                guard !Task.isCancelled, let outcome = self.map({ $0.handlePulled(event) }) else { return }
                // Usually every consumer has room: then no suspension, and no hop off the main actor.
                guard let wait = outcome else { continue }
                await wait()
            }
            if !Task.isCancelled { self?.sourceEnded() }
        }
        return SourceSession { task.cancel() }
    }

    /// Handles a pulled event; returns what to wait for before pulling the next, or `nil` when
    /// every consumer has room. The wait holds the consumers' buffers, not the manager, so a
    /// manager let go while its replay waits still goes.
    private func handlePulled(_ event: SourceEvent) -> (@Sendable () async -> Void)? {
        handle(event)
        let channels = liveSessions.values.map(\.channel)
        let proxy = delegateSlot.proxy as? LocationManagerDelegateProxy
        guard channels.contains(where: \.needsRoom) || proxy?.needsRoom == true else { return nil }
        return {
            for channel in channels { await channel.waitForRoom() }
            await proxy?.waitForRoom()
        }
    }

    /// Runs the source exactly while it is needed and allowed.
    func reconcileSource() {
        if !needsSource { refusalReported = false }
        let wanted = needsSource && authorizationStatus.isAuthorized && !sourceFinished
        if wanted, session == nil {
            reportedSourceError = nil
            if let pulled = source as? any PulledLocationSource {
                session = pull(pulled)
            } else {
                // The source holds the manager weakly: a manager nobody else holds goes away, and
                // its deinit ends the session.
                session = source.startSession { [weak self] event in
                    guard let self else { return }
                    if let event { self.handle(event) } else { self.sourceEnded() }
                }
            }
        } else if !wanted, let running = session {
            session = nil
            running.cancel()
        }
    }
}
