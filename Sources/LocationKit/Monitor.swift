import FoundationEssentials
import GPSReports
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// Watches named conditions and says when each becomes satisfied or unsatisfied, like iOS 17's
/// `CLMonitor`; its conditions and their last events survive the process.
///
/// ```swift
/// let monitor = try Monitor(named: "geofences")
/// try await monitor.add(CircularGeographicCondition(center: home, radius: 150), identifier: "home")
/// await monitor.startMonitoring(with: manager)
/// for await event in monitor.events {
///     print(event.identifier, event.state)
/// }
/// ```
///
/// A monitor is kept by name in `$XDG_STATE_HOME/geotrack/monitors/NAME.json` (written
/// atomically, mode 0600): a program that opens the monitor of the same name again finds its
/// conditions and their last states, as an app relaunched by iOS does. Conditions are decided
/// the way regions are: with hysteresis, and never by a location whose accuracy is no better
/// than the radius (an approximate one, say), so a condition stays as it was until a good fix.
///
/// **One monitor per name.** As in CoreLocation, a name is open in one monitor at a time: while
/// a `Monitor` holds it, opening another of the same name, in this process or in another process
/// of the user, throws ``LocationError/monitorInUse(name:path:processID:)``, so two monitors
/// never overwrite each other's file. The name is held by an advisory record lock
/// (`fcntl(F_SETLK)`, as the outbox's claims are) on `NAME.lock` beside the file, and given up
/// by ``close()``, when the monitor is deallocated, or when its process ends, however it ends: a
/// crashed program leaves no name locked. Deallocation comes with the last reference, and a task
/// still awaiting one of its methods holds one; to give the name up at a point you choose (before
/// opening it again, say), call ``close()``. The process must not open `NAME.lock` itself while
/// it holds the name: closing any descriptor of a file drops the process's record locks on it.
public actor Monitor {
    /// A condition's state, like `CLMonitor.Event.State`.
    public enum State: String, Sendable, Hashable, Codable, CustomStringConvertible {
        /// Not known yet: no location accurate enough since the condition was added.
        case unknown
        /// The device is inside.
        case satisfied
        /// The device is outside.
        case unsatisfied
        /// The condition is no longer monitored.
        case unmonitored

        /// The case's name.
        public var description: String { rawValue }
    }

    /// A change of a condition's state.
    public struct Event: Sendable, Hashable, Codable, CustomStringConvertible {
        /// The condition's identifier.
        public let identifier: String
        /// When the state changed: the time of the fix that decided it, or when the condition was added.
        public let date: Date
        /// The new state.
        public let state: State

        /// The identifier and the new state.
        public var description: String { "\(identifier): \(state)" }
    }

    /// A monitored condition and its latest event, like `CLMonitor.Record`.
    public struct Record: Sendable, Hashable, Codable {
        /// The condition.
        public let condition: CircularGeographicCondition
        /// Its latest event.
        public let lastEvent: Event
    }

    /// The largest radius a condition may have, in metres.
    public static let maximumRadius = 100_000.0

    /// The monitor's name.
    public nonisolated let name: String
    /// The file its conditions are kept in.
    public nonisolated let path: String
    /// Every change of state, as it happens, until the monitor goes away. One consumer reads
    /// it, as `CLMonitor.events` is read: two tasks iterating it share the events out between
    /// them (an `AsyncStream`'s rule), so have one task read it and pass each event on.
    public nonisolated let events: AsyncStream<Event>

    private let continuation: AsyncStream<Event>.Continuation
    let directory: String
    private let now: @Sendable () -> Date
    private let logger: Logger
    private var records: [String: Record]
    private var trackers: [String: RegionTracker]
    private var feed: Task<Void, Never>?
    /// The name's lock while the monitor is open; `nil` once closed.
    private var lock: MonitorLock?

    /// Opens the monitor called `name`, with the conditions it had when last used.
    ///
    /// - Parameters:
    ///   - name: letters, digits, `.`, `_` and `-`, 1 to 64 of them, not starting with `.`.
    ///   - directory: where monitors are kept; `nil` means `monitors` in
    ///     ``AuthorizationStore/defaultDirectory(environment:)``.
    ///   - environment: the environment to read `XDG_STATE_HOME` and `HOME` from.
    ///   - now: the time an added condition's first event gets; inject a fixed one in tests.
    ///   - logger: where a failure to save is logged; `nil` logs nothing.
    /// - Throws: ``LocationError/monitorInUse(name:path:processID:)`` while another monitor of
    ///   this name is open, here or in another process (see ``close()``);
    ///   ``LocationError/monitorFailed(name:path:reason:)`` for a bad name, a folder or lock file
    ///   that cannot be made, or a file that cannot be read or does not hold a monitor.
    public init(named name: String, directory: String? = nil,
                environment: [String: String] = ProcessEnvironment.stateDirectoryVariables,
                now: @escaping @Sendable () -> Date = Date.init, logger: Logger? = nil) throws(LocationError) {
        let directory = directory ?? AuthorizationStore.defaultDirectory(environment: environment) + "/monitors"
        let path = directory + "/" + name + ".json"
        guard Self.isValidName(name) else {
            throw .monitorFailed(name: name, path: directory,
                                 reason: "a monitor's name is 1 to 64 letters, digits, '.', '_' or '-', not starting with '.'")
        }
        // The name first: a file is read only by the monitor that may write it.
        let lock = try Self.lock(name: name, path: path, directory: directory)
        self.name = name
        self.path = path
        self.directory = directory
        self.now = now
        self.logger = logger ?? Logger.disabled
        // A file that cannot be used throws here, and the lock, not yet stored, is given up with it.
        records = try Self.load(name: name, path: path)
        self.lock = lock
        trackers = records.mapValues { record in
            RegionTracker(region: Self.region(record.condition, identifier: record.lastEvent.identifier),
                          state: Self.regionState(record.lastEvent.state))
        }
        (events, continuation) = AsyncStream.makeStream(of: Event.self)
    }

    deinit {
        feed?.cancel()
        continuation.finish()
        // `lock` goes with the monitor, and closing its descriptor gives the name up.
    }

    /// Closes the monitor: stops ``startMonitoring(with:)``'s feed, finishes ``events``, and
    /// gives up its name, so that a monitor of the same name may be opened again, in this
    /// process or another. The conditions stay saved for that monitor.
    ///
    /// Afterwards ``identifiers`` and ``record(for:)`` still say what the monitor held;
    /// ``add(_:identifier:assuming:)`` and ``remove(_:)`` throw, and ``evaluate(_:)`` and
    /// ``startMonitoring(with:)`` do nothing: the file may be another monitor's by then.
    /// Closing a closed monitor does nothing. Deallocating a monitor closes it too; call this
    /// when the name must be free at a known point, as a task may still hold the monitor.
    public func close() {
        guard let held = lock else { return }
        feed?.cancel()
        feed = nil
        continuation.finish()
        lock = nil
        held.release()
    }

    /// The error for a change asked of a closed monitor.
    private var closedError: LocationError {
        .monitorFailed(name: name, path: path, reason: "the monitor is closed; open it again to change it")
    }

    /// The identifiers of the monitored conditions, sorted.
    public var identifiers: [String] { records.keys.sorted() }

    /// The condition monitored under `identifier` and its latest event, or `nil`.
    public func record(for identifier: String) -> Record? {
        records[identifier]
    }

    /// Monitors `condition` under `identifier`, replacing any condition of that identifier, and
    /// saves it. Its first event is `state` (you may know already where the device is); the next
    /// decisive location reports the real state when it differs.
    public func add(_ condition: CircularGeographicCondition, identifier: String,
                    assuming state: State = .unknown) throws(LocationError) {
        guard lock != nil else { throw closedError }
        guard !identifier.isEmpty, identifier.utf8.count <= 256, !identifier.contains(where: \.isNewline) else {
            throw .monitorFailed(name: name, path: path, reason: "an identifier is 1 to 256 bytes on one line")
        }
        guard condition.radius.isFinite, condition.radius > 0, condition.radius <= Self.maximumRadius else {
            throw .monitorFailed(name: name, path: path,
                                 reason: "the radius of '\(identifier)' must be greater than 0 and at most \(Int(Self.maximumRadius)) m (got \(condition.radius))")
        }
        let start = state == .unmonitored ? .unknown : state
        let event = Event(identifier: identifier, date: now(), state: start)
        var changed = records
        changed[identifier] = Record(condition: condition, lastEvent: event)
        try save(changed)
        records = changed
        trackers[identifier] = RegionTracker(region: Self.region(condition, identifier: identifier),
                                             state: Self.regionState(start))
    }

    /// Stops monitoring `identifier` and saves that; unknown identifiers are ignored.
    public func remove(_ identifier: String) throws(LocationError) {
        guard lock != nil else { throw closedError }
        guard records[identifier] != nil else { return }
        var changed = records
        changed[identifier] = nil
        try save(changed)
        records = changed
        trackers[identifier] = nil
    }

    /// Feeds the monitor from `manager`'s live updates (``LocationUpdate/liveUpdates(_:from:)``),
    /// which start the manager's source, until ``stopMonitoring()`` or ``close()``, or until the
    /// monitor goes away. While it monitors, the monitor holds the manager (as a live-updates
    /// loop does), so the source runs even when nothing else holds it; stopping lets it go.
    public func startMonitoring(with manager: LocationManager) async {
        guard lock != nil else { return }
        feed?.cancel()
        let updates = await MainActor.run { LocationUpdate.liveUpdates(from: manager) }
        feed = Task { [weak self] in
            for await update in updates {
                guard let self, !Task.isCancelled else { return }
                if let location = update.location { await self.evaluate(location) }
            }
        }
        // Closed while the updates were made: the feed must not outlive the close.
        if lock == nil { stopMonitoring() }
    }

    /// Stops feeding the monitor; its conditions stay saved.
    public func stopMonitoring() {
        feed?.cancel()
        feed = nil
    }

    /// Decides every condition on `location`, reports each change of state on ``events``, and
    /// saves the new states. ``startMonitoring(with:)`` calls it for each update; call it
    /// yourself to feed the monitor from elsewhere. A closed monitor decides nothing.
    public func evaluate(_ location: Location) {
        guard lock != nil else { return }
        var changes: [Event] = []
        for identifier in trackers.keys.sorted() {
            guard var tracker = trackers[identifier], let record = records[identifier] else { continue }
            let transition = tracker.update(with: location)
            trackers[identifier] = tracker
            guard transition != nil else { continue }
            let state = Self.state(tracker.state)
            guard state != record.lastEvent.state else { continue }
            let event = Event(identifier: identifier, date: location.timestamp, state: state)
            records[identifier] = Record(condition: record.condition, lastEvent: event)
            changes.append(event)
        }
        guard !changes.isEmpty else { return }
        do {
            try save(records)
        } catch {
            logger.warning("\(error)")
        }
        for event in changes { continuation.yield(event) }
    }

    // MARK: Between states and regions

    static func region(_ condition: CircularGeographicCondition, identifier: String) -> CircularRegion {
        CircularRegion(center: condition.center, radius: condition.radius, identifier: identifier)
    }

    static func regionState(_ state: State) -> RegionState {
        switch state {
        case .satisfied: .inside
        case .unsatisfied: .outside
        case .unknown, .unmonitored: .unknown
        }
    }

    static func state(_ region: RegionState) -> State {
        switch region {
        case .inside: .satisfied
        case .outside: .unsatisfied
        case .unknown: .unknown
        }
    }

    static func isValidName(_ name: String) -> Bool {
        let allowed = name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
        return allowed && (1...64).contains(name.utf8.count) && !name.hasPrefix(".")
    }
}
