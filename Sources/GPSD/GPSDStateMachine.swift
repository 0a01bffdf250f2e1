import GPSReports

/// The decisions of one ``GPSDClient`` session, free of I/O and timers.
///
/// Each input (a connection attempt, a report, a failure, a timer) returns the
/// events to emit and whether the stale watchdog must re-arm; the session
/// performs them. `Instant` is the injected clock's.
struct GPSDStateMachine<Instant: InstantProtocol> where Instant.Duration == Duration {
    /// What an input asks the session to do.
    struct Action {
        /// Events for the stream, in order.
        var events: [SourceEvent] = []
        /// The stale watchdog should re-read its deadline.
        var rearmWatchdog = false
    }

    private struct Connected {
        var lastActivity: Instant
        var generation: UInt64 = 0
        var isStale = false
        /// gpsd answered on this connection: anything but its greeting. gpsd sends VERSION to
        /// whoever connects, then DEVICES once asked to watch; a peer that greets and then says
        /// nothing (a proxy, a fake, a gpsd whose device list never parses) has not answered,
        /// and the handshake deadline gives up on it.
        var heardFrom = false
        var receivers: Set<String> = []
        var receiverState: SourceState?
        /// The summary of the last SKY delivered, while nothing else about the source changed.
        var lastSky: SkySummary?
    }

    private enum Phase {
        case idle
        case connecting
        case connected(Connected)
    }

    private var phase = Phase.idle
    private let device: String?
    private let staleAfter: Duration
    private let skyViews: SkyViewDelivery

    /// Creates a machine; `device` limits receiver presence to that one receiver.
    init(device: String?, staleAfter: Duration, skyViews: SkyViewDelivery = .every) {
        self.device = device
        self.staleAfter = staleAfter
        self.skyViews = skyViews
    }

    /// A connection attempt starts.
    mutating func connecting() -> Action {
        phase = .connecting
        return Action(events: [.state(.connecting)])
    }

    /// The TCP connection is up; silence is measured from `now`.
    mutating func connected(now: Instant) -> Action {
        phase = .connected(Connected(lastActivity: now))
        return Action(events: [.state(.connected)], rearmWatchdog: true)
    }

    /// One report arrived at `now`.
    mutating func received(_ report: Report, now: Instant) -> Action {
        guard case .connected(var state) = phase else { return Action(events: [.report(report)]) }
        // Release the phase's copy, so the sets below are changed in place rather than copied.
        phase = .connecting
        var action = Action()
        let wasStale = state.isStale
        state.lastActivity = now
        state.generation &+= 1
        state.isStale = false
        if case .version = report {} else { state.heardFrom = true }

        switch report {
        case .devices(let devices):
            state.receivers = Set(devices.filter { $0.activated != nil && watches($0.path) }.map(\.path))
        case .deviceAdded(let device):
            if watches(device.path) { state.receivers.insert(device.path) }
        case .deviceRemoved(let device):
            state.receivers.remove(device.path)
        default:
            if let device = Self.device(of: report), watches(device), !state.receivers.contains(device) {
                state.receivers.insert(device)
            }
        }

        // Presence follows the receivers gpsd lists; a report from a receiver proves it.
        let presence: SourceState? = switch report {
        case .devices, .deviceAdded, .deviceRemoved:
            state.receivers.isEmpty ? .receiverAbsent : .receiverPresent
        default:
            state.receivers.isEmpty ? state.receiverState : .receiverPresent
        }
        let reportsPresenceFirst = if case .fix = report { true } else { false }
        var stateEvents: [SourceEvent] = []
        if let presence, presence != state.receiverState || wasStale {
            stateEvents.append(.state(presence))
            state.receiverState = presence
        } else if wasStale {
            stateEvents.append(.state(.connected))
        }
        var delivers = true
        switch report {
        case .sky(let sky) where skyViews == .whenSummaryChanges:
            let summary = SkySummary(sky)
            delivers = summary != state.lastSky || !stateEvents.isEmpty
            state.lastSky = summary
        case .sky:
            break
        case .devices, .deviceAdded, .deviceRemoved:
            state.lastSky = nil
        default:
            if !stateEvents.isEmpty { state.lastSky = nil }
        }
        // A fix after silence first says the source is current again; a device
        // list first says what it lists.
        if reportsPresenceFirst {
            action.events = stateEvents
            if delivers { action.events.append(.report(report)) }
        } else {
            if delivers { action.events = [.report(report)] }
            action.events.append(contentsOf: stateEvents)
        }
        action.rearmWatchdog = wasStale
        phase = .connected(state)
        return action
    }

    /// The connection failed or closed.
    mutating func disconnected(_ error: SourceError) -> Action {
        phase = .idle
        return Action(events: [.state(.disconnected(error))])
    }

    /// No attempt follows: the session ends.
    func finished() -> Action {
        Action(events: [.state(.finished)])
    }

    /// The next attempt follows after `delay`.
    func retrying(after delay: Duration) -> Action {
        Action(events: [.state(.retrying(after: delay))])
    }

    /// Whether the current attempt has yet to connect, or connected and heard nothing: a peer
    /// still in that state when the handshake deadline passes is given up on.
    var isAwaitingFirstMessage: Bool {
        switch phase {
        case .idle: false
        case .connecting: true
        case .connected(let state): !state.heardFrom
        }
    }

    /// When the watchdog should look again, and the activity count it saw;
    /// `nil` while not connected or already stale (nothing to time).
    func staleDeadline() -> (deadline: Instant, generation: UInt64)? {
        guard case .connected(let state) = phase, !state.isStale else { return nil }
        return (state.lastActivity.advanced(by: staleAfter), state.generation)
    }

    /// The watchdog's timer fired for `generation`: stale when nothing arrived since.
    mutating func staleTimerFired(generation: UInt64) -> Action {
        guard case .connected(var state) = phase, !state.isStale, state.generation == generation else {
            return Action()
        }
        state.isStale = true
        phase = .connected(state)
        return Action(events: [.state(.stale)])
    }

    private func watches(_ path: String) -> Bool {
        device == nil || device == path
    }

    private static func device(of report: Report) -> String? {
        switch report {
        case .fix(let fix): fix.device
        case .sky(let sky): sky.device
        case .attitude(let attitude): attitude.device
        default: nil
        }
    }
}
