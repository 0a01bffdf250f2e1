import MQTT
import Publishing
import Synchronization

/// Keeps count, per broker, of the messages waiting in the outbox and of whether the broker can
/// take them, and decides the ``PublishingStatus`` the status line shows: the one rule for it.
///
/// It counts in memory (what the outbox held at start, plus what was queued, minus what the
/// brokers acknowledged), so that no fix and no broker event costs a read of the outbox.
package final class PublishingMonitor: Sendable {
    /// Whether one broker can take messages now.
    enum Link: Sendable, Equatable {
        case connecting, connected, unreachable
        case refused
        /// Not connected, for the reason the client named (``MQTTClient/failureSummary(_:)``).
        case failed(String)
    }

    private struct Route {
        var waiting = 0
        /// The most the outbox keeps for it: past that it drops the oldest.
        var limit = Int.max
        var link = Link.connecting
        /// What the status line calls the destination: "broker" (MQTT) or "server" (HTTP).
        var party = "broker"
        /// Dead letters this run, and the last one's reason in short.
        var setAside = 0
        var setAsideReason = ""
    }

    private struct State {
        var routes: [String: Route] = [:]
        var shown: PublishingStatus?
        var observer: (@Sendable (PublishingStatus?) -> Void)?
    }

    private let state = Mutex(State())

    /// A monitor for no broker yet; ``start(_:waiting:)`` adds each.
    package init() {}

    /// Adds a destination with what already waits for it, in an outbox that keeps at most `limit`
    /// for it; `party` is what the status line calls it ("broker", or "server" over HTTP).
    func start(_ key: String, waiting: Int, limit: Int = .max, party: String = "broker") {
        state.withLock { $0.routes[key] = Route(waiting: waiting, limit: limit, party: party) }
    }

    /// Calls `observer` with the status each time it changes (at once with the current one).
    package func observe(_ observer: @escaping @Sendable (PublishingStatus?) -> Void) {
        let current = state.withLock { state in
            state.observer = observer
            return state.shown
        }
        observer(current)
    }

    /// The status shown now.
    package var status: PublishingStatus? { state.withLock { $0.shown } }

    /// Messages were queued for `key`: no more than its outbox's limit ever wait.
    func queued(_ count: Int, for key: String) {
        update { state in
            guard let route = state.routes[key] else { return }
            state.routes[key]?.waiting = min(route.limit, route.waiting + count)
        }
    }

    /// What the sender for `key` said.
    func sender(_ key: String, reported progress: OutboxSender.Progress) {
        update { state in
            switch progress {
            case .connected: state.routes[key]?.link = .connected
            case .unreachable:
                // A named reason or a refusal stays until a connection succeeds: the broker
                // drops each retry it refuses (a disconnect after the refusal), and the line
                // would flicker to "unreachable" in between.
                switch state.routes[key]?.link {
                case .failed?, .refused?: break
                default: state.routes[key]?.link = .unreachable
                }
            case .failed(let code): state.routes[key]?.link = .failed(MQTTClient.failureSummary(code))
            case .unavailable(let reason):
                // What happened, without what to check, as MQTT's failureSummary cuts it.
                state.routes[key]?.link = .failed(reason.firstRange(of: ": ").map { String(reason[..<$0.lowerBound]) } ?? reason)
            case .refused: state.routes[key]?.link = .refused
            case .delivered(let count):
                if let waiting = state.routes[key]?.waiting { state.routes[key]?.waiting = max(0, waiting - count) }
            case .setAside(let reason):
                // It left the queue, never to be sent: counted apart, with why.
                if let waiting = state.routes[key]?.waiting { state.routes[key]?.waiting = max(0, waiting - 1) }
                state.routes[key]?.setAside += 1
                state.routes[key]?.setAsideReason = reason.firstRange(of: ": ").map { String(reason[..<$0.lowerBound]) } ?? reason
            }
        }
    }

    private func update(_ change: (inout State) -> Void) {
        let (changed, observer) = state.withLock { state -> (PublishingStatus??, (@Sendable (PublishingStatus?) -> Void)?) in
            change(&state)
            let status = Self.status(state.routes.values)
            guard status != state.shown else { return (nil, nil) }
            state.shown = status
            return (.some(status), state.observer)
        }
        if let changed, let observer { observer(changed) }
    }

    /// The rule: messages waiting for brokers that failed to connect or refused, summed; a
    /// refusal named before unreachability, as waiting cannot cure it.
    private static func status(_ routes: some Collection<Route>) -> PublishingStatus? {
        let stuck = routes.filter { route in
            guard route.waiting > 0 else { return false }
            switch route.link {
            case .unreachable, .refused, .failed: return true
            case .connecting, .connected: return false
            }
        }
        let setAside = routes.reduce(0) { $0 + $1.setAside }
        let setAsideReason = routes.first { $0.setAside > 0 }?.setAsideReason ?? ""
        guard !stuck.isEmpty else {
            return setAside > 0 ? PublishingStatus(queued: 0, problem: "", setAside: setAside, setAsideReason: setAsideReason) : nil
        }
        let named = stuck.lazy.compactMap { route -> String? in
            if case .failed(let summary) = route.link { summary } else { nil }
        }.first
        let refused = stuck.first { $0.link == .refused }
        let problem = refused.map { "\($0.party) refused the login" } ?? named ?? "\(stuck[stuck.startIndex].party) unreachable"
        return PublishingStatus(queued: stuck.reduce(0) { $0 + $1.waiting }, problem: problem,
                                setAside: setAside, setAsideReason: setAsideReason)
    }
}
