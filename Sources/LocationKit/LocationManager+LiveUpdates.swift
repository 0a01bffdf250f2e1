import GPSReports
import GeoTrackReactive

extension LocationUpdate {
    /// Locations as an `AsyncSequence`, as iOS 17's `CLLocationUpdate.liveUpdates(_:)` gives
    /// them: iterating starts the manager's source, and ending the iteration (a `break`, the
    /// task cancelled) stops it again unless something else still needs it. No
    /// `startUpdatingLocation()`, no delegate.
    ///
    /// ```swift
    /// for await update in LocationUpdate.liveUpdates(.fitness, from: manager) {
    ///     if let location = update.location { print(location.coordinate) }
    ///     if update.authorizationDenied { break }
    /// }
    /// ```
    ///
    /// Each update has a location, or says why there is none: access denied, restricted or
    /// undecided; no location available (gpsd down, no receiver, silence); or the device is
    /// stationary. The sequence ends when the task is cancelled, or after a
    /// `locationUnavailable` update when the source ended for good (a replay's end). The
    /// manager's own filters (``LocationManager/accuracyFilter``, ``LocationManager/distanceFilter``)
    /// do not apply: `configuration` chooses.
    ///
    /// **A loop slower than the source.** The loop may do any work, awaited or not, per update.
    /// A replay waits for it: the manager reads a played-back source only as fast as its slowest
    /// consumer takes what it gave (see ``LocationManager``), so no update is lost, however long
    /// the log. A live receiver cannot wait: up to ``LocationUpdate/bufferLimit`` updates wait for
    /// the loop, and when it falls further behind the oldest waiting update is dropped; the next
    /// update the loop receives says how many in ``LocationUpdate/droppedUpdates``.
    @MainActor
    public static func liveUpdates(_ configuration: LiveConfiguration = .default,
                                   from manager: LocationManager) -> LiveUpdates {
        LiveUpdates(manager: manager, configuration: configuration)
    }

    /// The sequence ``liveUpdates(_:from:)`` returns. Each iteration is a session of its own.
    public struct LiveUpdates: AsyncSequence, Sendable {
        /// Never fails.
        public typealias Failure = Never

        let manager: LocationManager
        let configuration: LiveConfiguration

        /// Creates the iterator; the session starts with the first `next()`.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(manager: manager, configuration: configuration)
        }

        /// Iterates ``LiveUpdates``.
        public struct AsyncIterator: AsyncIteratorProtocol {
            let manager: LocationManager
            let configuration: LiveConfiguration
            var session: SessionLifetime?

            /// The next update; `nil` when the task is cancelled. The iterator holds the manager,
            /// so the source runs while the loop does: end the loop (or cancel its task) to stop.
            public mutating func next() async -> LocationUpdate? {
                await next(isolation: nil)
            }

            /// The next update, resuming on `actor`.
            public mutating func next(isolation actor: isolated (any Actor)?) async -> LocationUpdate? {
                if session == nil {
                    let channel = BufferedChannel<LocationUpdate>(capacity: LocationUpdate.bufferLimit,
                                                                  highWater: LocationUpdate.bufferLimit / 4)
                    let id = await manager.startLiveUpdates(configuration, channel: channel)
                    // Dropping the iterator (a break) or cancelling the task ends the session.
                    channel.onTermination { [weak manager] in
                        Task { @MainActor in manager?.stopLiveUpdates(id) }
                    }
                    session = SessionLifetime(channel)
                }
                guard let delivery = await session?.channel.next(isolation: actor) else { return nil }
                return delivery.dropped > 0 ? delivery.element.afterDropping(delivery.dropped) : delivery.element
            }
        }

        /// Ends the session when the iterator goes away, as a released `AsyncStream` iterator does.
        final class SessionLifetime: Sendable {
            let channel: BufferedChannel<LocationUpdate>
            init(_ channel: BufferedChannel<LocationUpdate>) { self.channel = channel }
            deinit { channel.terminate() }
        }
    }
}

extension LocationManager {
    /// Registers a live-update session, tells it the state of things, and starts the source if needed.
    func startLiveUpdates(_ configuration: LocationUpdate.LiveConfiguration,
                          channel: BufferedChannel<LocationUpdate>) -> UInt64 {
        nextRequestID &+= 1
        let id = nextRequestID
        let session = LiveUpdateSession(configuration: configuration, channel: channel)
        liveSessions[id] = session
        if let condition = liveCondition() { session.report(condition) }
        if authorizationStatus == .notDetermined { requestWhenInUseAuthorization() }
        sourceFinished = false
        reconcileSource()
        return id
    }

    /// Ends a live-update session, and the source with it when nothing else needs it.
    func stopLiveUpdates(_ id: UInt64) {
        guard let session = liveSessions.removeValue(forKey: id) else { return }
        session.finish()
        reconcileSource()
    }

    /// Tells every live session that something changed: access, or whether a location can be had.
    func updateLiveConditions() {
        guard !liveSessions.isEmpty, let condition = liveCondition() else { return }
        for session in liveSessions.values { session.report(condition) }
        // A source that ended for good (a replay's last line, gpsd without retries) ends the
        // sequences too, so a loop over a replay's updates finishes.
        if receiverStatus.sourceState == .finished {
            let ended = liveSessions.values
            liveSessions.removeAll()
            for session in ended { session.finish() }
            reconcileSource()
        }
    }

    /// Why no location can come now, or `nil` when locations may flow.
    func liveCondition() -> LocationUpdate? {
        switch authorizationStatus {
        case .denied: return LocationUpdate(authorizationDenied: true)
        case .restricted: return LocationUpdate(authorizationRestricted: true)
        case .notDetermined: return LocationUpdate(authorizationRequestInProgress: true)
        case .authorizedWhenInUse, .authorizedAlways: break
        }
        switch receiverStatus.sourceState {
        case .receiverAbsent?, .disconnected?, .retrying?, .stale?, .finished?:
            return LocationUpdate(locationUnavailable: true)
        default:
            return nil
        }
    }
}
