import FoundationEssentials
import GeoTrackService
import HTTP
import LocationKit
import Logging
import MQTT
import Outbox
import OwnTracks
import Publishing
import Synchronization
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// `--publish`: one more consumer of the service's updates. Each location becomes an OwnTracks
/// `location` message and each region entered or left a `transition`; every message is written
/// to the outbox first, and a sender per broker delivers it from there.
///
/// It converts what the service delivered and decides nothing: the location (already snapped
/// under approximate access) and the region events are the service's.
package final class PublishOutput: Sendable {
    /// One destination.
    struct Route: Sendable {
        let key: String
        /// What the destination takes: OsmAnd takes locations only, as its query.
        let format: Format
        /// Whether it is a broker (Home Assistant's discovery goes to brokers only).
        var isMQTT = false
        let sender: any PublishingSender
        /// Closes the client, once the sender has stopped.
        let close: @Sendable () async -> Void
        /// Messages queued before this run and held (location access does not let them leave).
        var held = 0
        /// How many the outbox had dropped for this destination when the run began, so that
        /// the end can say how many this run's outage cost.
        var droppedBefore = 0
    }

    /// How a route's messages are written.
    enum Format: Sendable {
        /// OwnTracks' JSON over MQTT.
        case ownTracks
        /// OwnTracks' JSON in its HTTP mode: a location also names its `topic`, as the iOS app's
        /// does, by which Traccar's OwnTracks decoder tells devices apart (two-letter tids clash).
        case ownTracksHTTP
        /// Traccar's OsmAnd query, for the device id.
        case osmAnd(id: String)
    }

    private let outbox: Outbox
    private let routes: [Route]
    private let topic: OwnTracksTopic
    private let trackerID: String
    private let wait: Duration
    /// At most one location per this many seconds of `tst`.
    private let interval: Int
    /// `--publish-home-assistant`.
    private let homeAssistant: Bool
    private let now: @Sendable () -> Date
    /// The monotonic clock a chosen location's wait for later reports of its time is timed on.
    private let clock: @Sendable () -> Double
    private let state = Mutex(State())
    /// What the status line says of the brokers and the messages waiting for them.
    package let monitor = PublishingMonitor()
    private let tasks = Mutex<[Task<Void, Never>]>([])

    private struct State {
        var regions: Set<String> = []
        /// The `tst` of the last location chosen: OwnTracks' time is whole seconds, and the
        /// Recorder skips its `last` update for a location whose `tst` repeats the previous one.
        var lastTimestamp: Int?
        /// The location chosen for its `tst` and not yet queued, with when it came (``clock``)
        /// and the regions it is in: a later report of the same fix time replaces it
        /// (``handle(_:)``). The regions are taken as it comes, since the region events of the
        /// next fix come before that fix's location, which is what queues this one.
        var chosen: (location: Location, since: Double, regions: [String])?
        /// Queueing a location from ``tick()`` failed: thrown by the next ``handle(_:)`` or
        /// ``flush()``, as a failure there would have been.
        var failure: CLIError?
    }

    /// How long a chosen location waits for a later report of its fix time, in seconds: a
    /// receiver's cycle. Its next fix time queues it sooner.
    static let reportWait = 1.0
    /// `wtst`, when the regions (OwnTracks' waypoints) were made: geotrack's regions come from
    /// the configuration, which says no time, so it is when this run began monitoring them.
    private let regionsSince: Int

    /// Why what earlier runs queued is held in the outbox, not sent; nil when it may leave.
    private let hold: String?

    /// Opens the outbox and makes a client per destination; nothing connects before ``start()``.
    /// With `hold` (why location access does not let them leave), what earlier runs queued stays
    /// in the outbox, unsent; only what this run queues is sent.
    package init(destinations: [PublishDestination], credentials: BrokerCredentials, topic: OwnTracksTopic,
                 trackerID: String?, outbox: Outbox, wait: Duration, interval: Int = 1, homeAssistant: Bool = false,
                 hold: String? = nil, now: @escaping @Sendable () -> Date = Date.init,
                 clock: @escaping @Sendable () -> Double = MonotonicClock.seconds, logger: Logger?) throws(CLIError) {
        self.hold = hold
        self.clock = clock
        self.interval = max(1, interval)
        self.homeAssistant = homeAssistant
        self.outbox = outbox
        self.topic = topic
        self.trackerID = trackerID ?? topic.defaultTrackerID
        self.wait = wait
        self.now = now
        regionsSince = OwnTracksLocation.seconds(now())
        var routes: [Route] = []
        for destination in destinations {
            let key = destination.outboxKey(topic: topic)
            let claim = try Self.claim(key, of: destination, topic: topic, outbox: outbox)
            // What an earlier run left counts as waiting too; an unreadable count is no reason
            // not to publish.
            let summary = try? outbox.summary(for: key)
            let earlier = summary?.count ?? 0
            var after: Int64 = 0
            var held = 0
            if hold != nil, earlier > 0 {
                // Fails closed: without the boundary, nothing earlier can be told from this run's.
                do {
                    after = try outbox.lastID(for: key)
                } catch {
                    throw CLIError(.ioError, error.message)
                }
                held = earlier
            }
            monitor.start(key, waiting: earlier - held, limit: outbox.capacity, party: destination.isHTTP ? "server" : "broker")
            let monitor = monitor
            // Home Assistant's config is retained by the broker, which a broker without
            // persistence forgets when it restarts: the device would vanish from Home Assistant
            // until geotrack restarted too. So each connection after the first announces it again
            // (queued before the sender sends what waits, so it goes first).
            let reannounce: (@Sendable () -> Void)? = homeAssistant && !destination.isHTTP ? { @Sendable in
                let message = Self.discovery(for: key, topic: topic, created: now())
                if (try? outbox.enqueue(contentsOf: [message])) != nil { monitor.queued(1, for: key) }
            } : nil
            let connections = ConnectionCount()
            let observer: @Sendable (OutboxSender.Progress) -> Void = { progress in
                if case .connected = progress, connections.next() > 1 { reannounce?() }
                monitor.sender(key, reported: progress)
            }
            let target = destination.target(credentials: credentials)
            switch target {
            case .mqtt(let endpoint):
                let will = MQTTClient.Will(topic: topic.description,
                                           payload: OwnTracksJSON.lastWill(timestamp: Int(now().timeIntervalSince1970)))
                let client: MQTTClient
                do {
                    client = try MQTTClient(clientID: Self.clientID(topic), endpoint: endpoint, will: will, logger: logger)
                } catch {
                    let status: ExitStatus = switch error.code {
                    case .tls: .noInput
                    case .libraryMissing: .libraryMissing
                    default: .failure
                    }
                    throw CLIError(status, "--publish \(destination.description): \(error.message)")
                }
                routes.append(Route(key: key, format: .ownTracks, isMQTT: true,
                                    sender: OutboxSender(outbox: outbox, destination: key, client: client, logger: logger,
                                                         observer: observer, after: after),
                                    close: { await client.close(); claim.release() }, held: held, droppedBefore: summary?.dropped ?? 0))
            case .ownTracksHTTP(let endpoint), .osmAnd(let endpoint):
                let client = try Self.httpClient(endpoint, destination: destination)
                guard let request = PublishDestination.request(for: target) else { continue }
                let format: Format = if case .osmAnd = target { .osmAnd(id: topic.device) } else { .ownTracksHTTP }
                routes.append(Route(key: key, format: format,
                                    sender: HTTPOutboxSender(outbox: outbox, destination: key, client: client, logger: logger,
                                                             observer: observer, after: after, request: request),
                                    close: { client.close(); claim.release() }, held: held, droppedBefore: summary?.dropped ?? 0))
            }
        }
        self.routes = routes
    }

    /// Claims the destination's queue for this run (``Outbox/claim(_:)``): a second process
    /// publishing for the same device there would send every queued message again, and over
    /// MQTT, with the same client id, the two would throw each other off the broker. So the
    /// second is refused at start, with 75 (a restarted service gets the queue once the other is
    /// done), saying which process holds it.
    static func claim(_ key: String, of destination: PublishDestination, topic: OwnTracksTopic,
                      outbox: Outbox) throws(CLIError) -> OutboxClaim {
        do {
            return try outbox.claim(key)
        } catch where error.code == .claimed {
            throw CLIError(.temporaryFailure, "--publish \(destination.description): another \(error.holderName) already publishes \(Terminal.safe(topic.user))/\(Terminal.safe(topic.device)) there from \(Terminal.safe(error.folder)), and two would send its queue twice; wait until it is done or stop it (if it is the service: systemctl stop geotrack), or publish as another device (--publish-device)")
        } catch {
            throw CLIError(.cannotCreate, error.message)
        }
    }

    /// An HTTP client for `endpoint`: libcurl, loaded now, so that a missing library is said
    /// before anything is queued.
    static func httpClient(_ endpoint: HTTPEndpoint, destination: PublishDestination) throws(CLIError) -> HTTPClient {
        do {
            return try HTTPClient(endpoint: endpoint)
        } catch {
            throw CLIError(error.code == .libraryMissing ? .libraryMissing : .failure, "--publish \(destination.description): \(error.message)")
        }
    }

    /// The client id: the topic's parts, so a second process for the same device replaces the
    /// first at the broker rather than both publishing.
    static func clientID(_ topic: OwnTracksTopic) -> String {
        "geotrack/\(topic.user)/\(topic.device)"
    }

    /// Connects to every broker and starts sending (what an earlier run left first), after
    /// queueing Home Assistant's discovery config for each broker when asked.
    package func start() {
        if homeAssistant {
            let created = now()
            let messages = routes.filter(\.isMQTT).map { Self.discovery(for: $0.key, topic: topic, created: created) }
            // A config that cannot be queued is not worth ending the run: the locations still go.
            _ = try? outbox.enqueue(contentsOf: messages)
        }
        let started = routes.map { route in Task { await route.sender.run() } }
        tasks.withLock { $0 = started }
    }

    /// Home Assistant's discovery config for the broker route `key`, retained there.
    private static func discovery(for key: String, topic: OwnTracksTopic, created: Date) -> OutboxMessage {
        OutboxMessage(destination: key, topic: HomeAssistantDiscovery.configTopic(topic),
                      payload: HomeAssistantDiscovery.config(topic), retain: true, created: created)
    }

    /// Queues the messages an update calls for.
    package func handle(_ update: TrackingUpdate) throws(CLIError) {
        switch update {
        case .location(let location):
            // At most one location per `interval` seconds of `tst`, the first fix time: a 2 or
            // 10 Hz receiver repeated the previous tst in 328 of 1 067 messages. A clock that
            // went back (another log replayed) starts over rather than silencing the device.
            // The fix time chosen is queued in its last report, as gpsd and the GPX track have
            // it: a receiver that sends GGA then RMC gives gpsd's speed derived between two
            // positions first, without a course, and its own speed and course after.
            let timestamp = OwnTracksLocation.seconds(location.timestamp)
            let interval = interval
            let arrived = clock()
            let (due, failure) = state.withLock { state -> ((Location, [String])?, CLIError?) in
                if let failure = state.failure { return (nil, failure) }
                if let chosen = state.chosen, chosen.location.timestamp == location.timestamp {
                    state.chosen = (location, chosen.since, Array(state.regions))
                    return (nil, nil)
                }
                let due = state.chosen.map { ($0.location, $0.regions) }
                state.chosen = nil
                if let last = state.lastTimestamp, timestamp >= last, timestamp - last < interval { return (due, nil) }
                state.lastTimestamp = timestamp
                state.chosen = (location, arrived, Array(state.regions))
                return (due, nil)
            }
            if let failure { throw failure }
            if let due { try queue(due.0, regions: due.1) }
        case .event(let event):
            let change: (OwnTracksTransition.Event, String)
            switch event.kind {
            case .regionEntered(let name): change = (.enter, name)
            case .regionExited(let name): change = (.leave, name)
            default: return
            }
            state.withLock { state in
                if change.0 == .enter { state.regions.insert(change.1) } else { state.regions.remove(change.1) }
            }
            // Where and when the crossing fix was, rounded as locations are: not the last
            // location published, which a filter or the rate may have left seconds behind.
            let crossing = event.location
            let transition = OwnTracksTransition(event: change.0, region: change.1,
                                                 timestamp: OwnTracksLocation.seconds(crossing?.timestamp ?? event.time),
                                                 latitude: crossing.map { OwnTracksLocation.nanodegrees($0.coordinate.latitude) },
                                                 longitude: crossing.map { OwnTracksLocation.nanodegrees($0.coordinate.longitude) },
                                                 accuracy: crossing?.horizontalAccuracy.flatMap { OwnTracksNumber.whole($0) },
                                                 trackerID: trackerID, waypointTimestamp: regionsSince)
            let json = OwnTracksJSON.encode(transition)
            // OsmAnd has no region events: Traccar computes its own geofences from the positions.
            try enqueue(topic: topic.events, retain: false) { format in
                switch format {
                case .ownTracks, .ownTracksHTTP: json
                case .osmAnd: nil
                }
            }
        case .status, .report:
            return
        }
    }

    /// Queues `location`'s message, with the regions it was in.
    private func queue(_ location: Location, regions: [String]) throws(CLIError) {
        let message = OwnTracksLocation(location, trackerID: trackerID, regions: regions,
                                        createdAt: OwnTracksLocation.seconds(now()))
        let json = OwnTracksJSON.encode(message)
        var named = message
        named.topic = topic.description
        let http = OwnTracksJSON.encode(named)
        try enqueue(topic: topic.description, retain: true) { format in
            switch format {
            case .ownTracks: json
            case .ownTracksHTTP: http
            case .osmAnd(let id): Array(OsmAndQuery.make(location, id: id).utf8)
            }
        }
    }

    /// Seconds until the chosen location has waited ``reportWait`` for a later report of its
    /// fix time, or nil while none waits.
    package var nextTick: Double? {
        let now = clock()
        return state.withLock { state -> Double? in
            guard let chosen = state.chosen, state.failure == nil else { return nil }
            // The same comparison as tick's, so that a timer at zero always finds it due.
            let waited = now - chosen.since
            return waited >= Self.reportWait ? 0 : Self.reportWait - waited
        }
    }

    /// Queues the chosen location once it has waited ``reportWait``: a receiver that stops
    /// reporting still has its last fix published now, not at the end of the run.
    package func tick() {
        let now = clock()
        let due = state.withLock { state -> (Location, [String])? in
            guard let chosen = state.chosen, state.failure == nil, now - chosen.since >= Self.reportWait else { return nil }
            state.chosen = nil
            return (chosen.location, chosen.regions)
        }
        guard let due else { return }
        do {
            try queue(due.0, regions: due.1)
        } catch {
            state.withLock { $0.failure = $0.failure ?? error }
        }
    }

    /// Queues the chosen location now: the run ends, and no later report of its time will come.
    /// Throws what a queueing from ``tick()`` failed with, if one did.
    package func flush() throws(CLIError) {
        let (due, failure) = state.withLock { state -> ((Location, [String])?, CLIError?) in
            defer { state.chosen = nil }
            return (state.chosen.map { ($0.location, $0.regions) }, state.failure)
        }
        if let failure { throw failure }
        if let due { try queue(due.0, regions: due.1) }
    }

    /// Queues a message for each route `payload` gives one for (nil: none for that format).
    private func enqueue(topic: String, retain: Bool, payload: (Format) -> [UInt8]?) throws(CLIError) {
        let created = now()
        var messages: [OutboxMessage] = []
        var queuedRoutes: [Route] = []
        for route in routes {
            guard let bytes = payload(route.format) else { continue }
            messages.append(OutboxMessage(destination: route.key, topic: topic, payload: bytes, retain: retain, created: created))
            queuedRoutes.append(route)
        }
        guard !messages.isEmpty else { return }
        do {
            try outbox.enqueue(contentsOf: messages)
        } catch {
            // Nothing may be lost silently: a message that cannot be kept ends the run.
            throw CLIError(.ioError, error.message)
        }
        for route in queuedRoutes {
            monitor.queued(1, for: route.key)
            route.sender.queued()
        }
    }

    /// Waits up to `--publish-wait` for every broker to acknowledge what was queued, then says
    /// what is left; see ``notes()``.
    package func drain() async -> [String] {
        let wait = wait
        // Nothing waiting (every row is deleted only after its PUBACK): no broker to wait for.
        let pending = routes.filter { ((try? outbox.summary(for: $0.key).count) ?? 1) > 0 }
        // Nothing to wait for; what was set aside is still said.
        guard !pending.isEmpty else { return await notes() }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await withTaskGroup(of: Void.self) { senders in
                    for route in pending {
                        senders.addTask { _ = await route.sender.waitUntilDelivered() }
                    }
                }
            }
            group.addTask { try? await Task.sleep(for: wait) }
            await group.next()
            group.cancelAll()
        }
        return await notes()
    }

    /// One line per destination that still has messages waiting in the outbox (and why, when
    /// its broker refused or could not be reached), saying how to send them; without waiting
    /// for any broker, so that a run ended by a signal says it too and still ends at once.
    package func notes() async -> [String] {
        var notes: [String] = []
        for route in routes {
            // Read once: what waits and what was dropped come from the same summary.
            let summary = try? outbox.summary(for: route.key)
            if let storage = await route.sender.storageFailure {
                // Not the destination's fault: it took them, the outbox could not record it.
                let unremoved = await route.sender.unremovedCount
                notes.append("\(unremoved) message\(unremoved == 1 ? "" : "s") delivered to \(route.key) could not be removed from the outbox (\(storage.reason ?? storage.message)): they will be sent again; nothing more was sent to it: free space in \(storage.folder) (or make it writable)")
            }
            let setAside = await route.sender.setAsideCount
            if setAside > 0 {
                // Not retried by themselves: said, with why and what to do, or they go unseen.
                let reason = await route.sender.setAsideReason ?? "the destination cannot take them"
                var advice = "once that is mended, 'geotrack outbox retry \(route.key)' queues them again; "
                    + "'geotrack outbox clear \(route.key)' deletes them"
                if case .osmAnd(let id) = route.format {
                    advice = "Traccar answers 400 for a device it does not know: add the device '\(id)' in Traccar; " + advice
                }
                notes.append("\(setAside) message\(setAside == 1 ? "" : "s") for \(route.key) set aside as undeliverable in this run (\(reason)), not sent: \(advice)")
            }
            // Past the outbox's capacity the oldest are dropped, as OwnTracks' own queue does:
            // locations lost for good, so said, not left for `geotrack outbox` to reveal.
            let dropped = (summary?.dropped ?? 0) - route.droppedBefore
            if dropped > 0 {
                notes.append("\(dropped) of the oldest message\(dropped == 1 ? " was" : "s were") dropped for \(route.key) in this run: the outbox holds at most \(outbox.capacity) for a destination")
            }
            if route.held > 0, let hold {
                notes.append("\(route.held) message\(route.held == 1 ? "" : "s") queued before this run for \(route.key) \(route.held == 1 ? "is" : "are") held because \(hold): 'geotrack auth grant' sends them, 'geotrack outbox clear \(route.key)' drops them")
            }
            let waiting = (summary?.count ?? 0) - route.held
            guard waiting > 0 else { continue }
            var note = "\(waiting) message\(waiting == 1 ? " waits" : "s wait") in the outbox for \(route.key)"
            let party = route.sender is HTTPOutboxSender ? "server" : "broker"
            if let refusal = await route.sender.refusalDescription {
                note += " (the \(party) refused the login: \(refusal))"
            } else if let failure = await route.sender.failureDescription {
                // A server that answered was reached: its answer is the reason, not a connection.
                note += HTTPDelivery.isAnswer(failure) ? " (\(failure))" : " (cannot connect: \(failure))"
            } else if await !route.sender.isConnected {
                note += " (the \(party) was not reachable)"
            }
            notes.append(note + "; the next run sends \(waiting == 1 ? "it" : "them"), or 'geotrack outbox flush'")
        }
        return notes
    }

    /// Disconnects from every broker; what was not acknowledged stays in the outbox. The
    /// senders stop first and are awaited, then the clients close: a sender that is publishing
    /// never does so on a client being freed.
    package func close() async {
        await stopSending()
        for route in routes { await route.close() }
    }

    /// Stops the senders and waits until each has, without disconnecting: what is queued after
    /// this stays in the outbox for the next run, and nothing more goes out in this one.
    package func stopSending() async {
        for route in routes { route.sender.stop() }
        for task in tasks.withLock({ $0 }) { await task.value }
    }
}

extension PublishOutput {
    /// The publisher the options ask for, or nil without `--publish`.
    package static func make(options: PublishOptions, environment: [String: String],
                             logger: Logger? = nil) throws(CLIError) -> PublishOutput? {
        let destinations = try options.destinations()
        guard !destinations.isEmpty else { return nil }
        try options.broker.checkTLSHasSecureDestination(destinations, option: "--publish")
        let outbox = try OutboxLocation.open(environment: environment)
        return try PublishOutput(destinations: destinations, credentials: options.broker.credentials(environment: environment),
                                 topic: options.topic(), trackerID: options.trackerID, outbox: outbox,
                                 wait: .milliseconds(Int(options.wait * 1000)), interval: options.interval,
                                 homeAssistant: options.homeAssistant, hold: heldReason(), logger: logger)
    }

    /// Why positions earlier runs queued may not leave now (``QueuedPositionHold``), or nil when
    /// the stored decision grants precise access. Read, never asked: a replay asks nothing, and a
    /// watch allowed once stores nothing. A decision that cannot be read holds them too.
    static func heldReason() -> String? {
        guard let access = try? AuthorizationStore().readAuthorization() else {
            return "the location-access decision cannot be read"
        }
        switch QueuedPositionHold.of(access) {
        case nil: return nil
        case .approximate: return "only approximate locations are allowed, and they may be precise"
        case .denied: return "location access is denied"
        case .restricted: return "location access is forbidden by the administrator's policy"
        case .notDetermined: return "location access has not been decided"
        }
    }
}

/// How many times a sender has connected, counted from its observer.
private final class ConnectionCount: Sendable {
    private let count = Mutex(0)

    /// Counts one more connection; returns how many there have been.
    func next() -> Int {
        count.withLock { count in
            count += 1
            return count
        }
    }
}
