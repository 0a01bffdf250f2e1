import FoundationEssentials
import MQTT
import OwnTracks
import Publishing

/// What a broker has told the fleet so far: its devices, whether it is connected, and why it
/// is not. The one reading of the broker's events that `fleet` and `serve --fleet` share; each
/// only shows it.
///
/// ``receive(_:broker:at:)`` changes the state and returns what the caller must do; it does nothing
/// itself, so the caller runs the effects (subscribing, printing, closing) in its own order.
package struct FleetFeed: Sendable, Equatable {
    /// The devices heard from.
    package private(set) var roster = FleetRoster()
    /// Whether the broker has accepted the connection and not lost it since.
    package private(set) var connected = false
    /// Why no connection can be made, while that lasts (``MQTTClient/failureReason(_:)``).
    package private(set) var problem: String?
    /// The last location's payload on each topic: a retained copy of it, which the broker sends
    /// again at each subscription, is not a new location.
    private var lastLocation: [String: [UInt8]] = [:]

    /// What the caller does after an event.
    package enum Action: Sendable, Equatable {
        /// Nothing shown changed.
        case none
        /// The broker accepted the connection without the session from before: subscribe to
        /// ``OwnTracksTopic/everyDevice``, and show the change. (A session the broker kept, for
        /// `--client-id`, keeps its subscriptions: subscribing again would only make the broker
        /// send every retained location again, and the view is just ``changed``.)
        case subscribe
        /// The broker refused the login: stop with this error.
        case refused(CLIError)
        /// What is shown changed (the connection, the problem or the devices).
        case changed
        /// A location arrived from a device; `changed` says whether the roster shows it
        /// differently (one older than the one kept does not).
        case location(OwnTracksLocation, topic: String, payload: [UInt8], changed: Bool)
        /// A device's last will arrived (the broker lost it): it is offline; `changed` as for a location.
        case lastWill(topic: String, payload: [UInt8], changed: Bool)
        /// The connection failed for a new reason: show it (a view without a header says it once).
        case failed(String)
    }

    /// An empty feed, not yet connected.
    package init() {}

    /// Takes in one event of the client connected to `broker`, received at `now`.
    package mutating func receive(_ event: MQTTEvent, broker: String, at now: Date = Date()) -> Action {
        switch event {
        case .connected(let sessionPresent):
            connected = true
            problem = nil
            return sessionPresent ? .changed : .subscribe
        case .refused(let code):
            return .refused(Self.refusal(broker: broker, code: code))
        case .disconnected:
            connected = false
            return .changed
        case .failed(let code):
            let reason = MQTTClient.failureReason(code)
            guard reason != problem else { return .none }
            problem = reason
            return .failed(reason)
        case .message(let topic, let payload, let retained):
            guard let message = OwnTracksMessage(payload: payload, receivedAt: OwnTracksLocation.seconds(now)),
                  OwnTracksTopic(topic: topic) != nil else { return .none }
            if case .location = message {
                // The broker's retained copy of the location already received on this topic, sent
                // again because the view subscribed again after a lost connection.
                if retained, lastLocation[topic] == payload { return .none }
                lastLocation[topic] = payload
            }
            let changed = roster.receive(topic: topic, message: message, receivedAt: now)
            switch message {
            case .location(let location): return .location(location, topic: topic, payload: payload, changed: changed)
            case .lastWill: return .lastWill(topic: topic, payload: payload, changed: changed)
            case .transition, .other: return changed ? .changed : .none
            }
        case .acknowledged, .subscribed:
            return .none
        }
    }

    /// The error for a broker that refused the login, with where its user and password come from.
    static func refusal(broker: String, code: Int32) -> CLIError {
        CLIError(.noPermission, "\(Terminal.safe(broker)) refused the login (\(OutboxSender.refusalReason(code))); check the user in the URL, and the password in --publish-password-file or \(BrokerOptions.passwordVariable)")
    }
}
