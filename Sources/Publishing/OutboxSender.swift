import Logging
import MQTT
import Outbox

/// Sends one destination's messages from the `Outbox` to an MQTT broker, in order, and
/// deletes each from the outbox once the broker acknowledged it (PUBACK).
///
/// It reads the outbox only when told something was queued (``queued()``), when the broker
/// (re)connects, or when acknowledgements make room: no polling. The client reconnects by
/// itself, with libmosquitto's delay of 1 s doubling to 30 s.
public actor OutboxSender: DrainAnswering {
    /// How a wait for the outbox to empty ended.
    public enum DrainOutcome: Sendable, Equatable {
        /// Everything queued was delivered.
        case delivered
        /// The broker refused the connection with this CONNACK code (4: bad user name or
        /// password, 5: not authorized).
        case refused(code: Int32)
    }

    /// What the sender tells its observer as it happens, so that a status line can say that
    /// messages wait for a broker it cannot reach.
    public enum Progress: Sendable, Equatable {
        /// The broker accepted the connection.
        case connected
        /// A connect failed or the connection was lost; the client retries by itself.
        case unreachable
        /// The broker refused the connection with this CONNACK code.
        case refused(code: Int32)
        /// No connection could be made, for a reason `MQTTClient.failureReason(_:)` names
        /// (a host not found, a connection refused, TLS); told after ``unreachable``.
        case failed(code: Int32)
        /// An HTTP destination could not take messages, for this reason (what happened, and
        /// what to check: `HTTPFailure.reason`, or the status it answered); it is retried.
        case unavailable(reason: String)
        /// The broker acknowledged this many more messages.
        case delivered(Int)
        /// A message the destination can never take (an HTTP 400, a topic MQTT refuses) was
        /// set aside as a dead letter, for this reason.
        case setAside(reason: String)
    }

    /// The outbox key of the messages this sender sends.
    public nonisolated let destination: String
    private let outbox: Outbox
    private let client: MQTTClient
    private let logger: Logger?
    private var state: SenderState
    /// The callers of ``waitUntilDelivered()``.
    var drainWaiters = DrainWaiters()
    private var refusal: Int32?
    /// The last connection failure reported, so that a retry failing the same way is not told again.
    private var failure: Int32?
    /// Why acknowledged messages could not be removed from the outbox; nothing more is sent after.
    private var storage: OutboxError?
    /// Acknowledged messages that could not be removed.
    private var unremoved = 0
    /// Messages set aside as dead letters since the sender started, and the last one's reason.
    private var deadLetters = 0
    private var deadLetterReason: String?
    private let observer: (@Sendable (Progress) -> Void)?
    private nonisolated let inputs: AsyncStream<Input>
    private nonisolated let input: AsyncStream<Input>.Continuation

    enum Input: Sendable {
        case queued
        case mqtt(MQTTEvent)
        /// A ``waitUntilDelivered()`` caller, answered once what was queued before it is read.
        case waiting(Int)
    }

    /// Creates a sender; ``run()`` does the work.
    /// - Parameters:
    ///   - outbox: the outbox the messages wait in.
    ///   - destination: the outbox key of the messages to send.
    ///   - client: the broker's client; the sender starts it.
    ///   - window: how many messages may await their PUBACK at once.
    ///   - logger: where the sender says what happens; nil for nothing.
    ///   - observer: told of the connection's changes and of deliveries, on the sender's executor.
    ///   - after: send only messages newer than this id; those before stay in the outbox
    ///     (queued positions held while location access does not allow them to leave).
    public init(outbox: Outbox, destination: String, client: MQTTClient, window: Int = 100, logger: Logger? = nil,
                observer: (@Sendable (Progress) -> Void)? = nil, after: Int64 = 0) {
        self.outbox = outbox
        self.observer = observer
        self.destination = destination
        self.client = client
        self.logger = logger
        state = SenderState(window: window, after: after)
        (inputs, input) = AsyncStream.makeStream(of: Input.self)
    }

    /// Says that messages were queued for this destination. Callable from any thread.
    public nonisolated func queued() {
        input.yield(.queued)
    }

    nonisolated func sendQuestion(_ id: Int) -> Bool {
        if case .terminated = input.yield(.waiting(id)) { return false }
        return true
    }

    var refusalOutcome: DrainOutcome? { refusal.map { .refused(code: $0) } }

    /// Ends ``run()`` once the inputs already given are handled, without closing the client:
    /// close it after `run()` returned, so that nothing publishes on a client being freed.
    public nonisolated func stop() {
        input.finish()
    }

    /// Whether the broker is connected now.
    public var isConnected: Bool { state.isConnected }

    /// The broker's refusal code, while it refuses the connection.
    public var refusalCode: Int32? { refusal }
    /// Why the last attempt to connect failed, when it says something about the configuration
    /// (`MQTTEvent.failed(code:)`); nil once connected.
    public var failureCode: Int32? { failure }

    /// How many messages the broker acknowledged since the sender started.
    public var acknowledgedCount: Int { state.acknowledgedCount }
    /// Why the outbox could not remove what the broker acknowledged, once it could not.
    public var storageFailure: OutboxError? { storage }
    /// How many acknowledged messages could not be removed from the outbox.
    public var unremovedCount: Int { unremoved }
    /// How many messages were set aside as dead letters since the sender started.
    public var setAsideCount: Int { deadLetters }
    /// Why the last one was set aside.
    public var setAsideReason: String? { deadLetterReason }

    /// Starts the client and sends until the client is closed or the task cancelled.
    public func run() async {
        let forwarding = Task { [client, input] in
            for await event in client.events { input.yield(.mqtt(event)) }
            input.finish()
        }
        defer { forwarding.cancel() }
        client.start()
        // What an earlier run left waits to be sent too.
        await perform(state.queued())
        for await next in inputs {
            if Task.isCancelled { break }
            switch next {
            case .queued:
                await perform(state.queued())
            case .mqtt(.connected):
                refusal = nil
                failure = nil
                logger?.debug("MQTT: connected to \(client.endpoint)")
                observer?(.connected)
                await perform(state.connected())
            case .mqtt(.refused(let code)):
                refusal = code
                logger?.warning("MQTT: \(client.endpoint) refused the connection (\(Self.refusalReason(code)))")
                observer?(.refused(code: code))
                drainWaiters.answer(.refused(code: code), includingAsking: true)
            case .mqtt(.disconnected(let code)):
                logger?.debug("MQTT: disconnected from \(client.endpoint) (\(code)); reconnecting")
                observer?(.unreachable)
                await perform(state.disconnected())
            case .mqtt(.failed(let code)):
                observer?(.failed(code: code))
                // Said once until it changes or a connection succeeds: the client retries with
                // its backoff, and the same line every 30 s would bury the status line.
                if failure != code {
                    failure = code
                    logger?.error("MQTT: cannot connect to \(client.endpoint): \(MQTTClient.failureReason(code)); retrying")
                }
            case .mqtt(.acknowledged(let messageID)):
                let before = state.acknowledgedCount
                await perform(state.acknowledged(messageID: messageID))
                if state.acknowledgedCount > before { observer?(.delivered(state.acknowledgedCount - before)) }
            case .waiting(let id):
                // Every queued() before this question has been read by now: the state knows
                // of all the caller queued.
                drainWaiters.questionRead(id)
            case .mqtt:
                break
            }
            // Halted by the outbox: nothing more will be sent, so once what is in flight was
            // answered, a wait has nothing more to wait for (the caller reads the failure).
            if state.isIdle || (storage != nil && state.inFlight.isEmpty) { drainWaiters.answer(.delivered) }
        }
        // Ended (closed or stopped): what is still queued stays in the outbox; the caller
        // counts it there, so the answer is only whether the broker refused.
        drainWaiters.answer(refusalOutcome ?? .delivered, includingAsking: true)
        hasEnded = true
    }

    /// Whether ``run()`` has returned: a waiter is then answered at once.
    var hasEnded = false

    /// Waits until everything queued so far was delivered and deleted, or the broker refused
    /// the connection; nil when the waiting task was cancelled. The caller bounds the wait (a
    /// task group with a timer).
    ///
    /// The question goes through the same inputs as ``queued()`` (`DrainAnswering`): the
    /// state it is answered from has read every message queued before it was asked.
    public func waitUntilDelivered() async -> DrainOutcome? {
        await waitForDrain()
    }

    /// What a refusal code means, for a person.
    public nonisolated static func refusalReason(_ code: Int32) -> String {
        switch code {
        case 1: "the broker does not speak MQTT 3.1.1"
        case 2: "the client id was rejected"
        case 3: "the broker is unavailable"
        case 4: "bad user name or password"
        case 5: "not authorized: check the user and password"
        default: "code \(code)"
        }
    }

    private func perform(_ actions: [SenderState.Action]) async {
        var pending = actions
        while !pending.isEmpty {
            let action = pending.removeFirst()
            switch action {
            case .remove(let ids):
                do {
                    try await outbox.remove(ids)
                } catch {
                    // Taken but still queued: each message sent from now on would be sent
                    // again too, so nothing more is sent; the caller says why.
                    if storage == nil { logger?.error("\(error.message)") }
                    storage = error
                    unremoved += ids.count
                }
            case .fetch(let after, let limit):
                guard storage == nil else { continue }
                let messages: [OutboxMessage]
                do {
                    messages = try await outbox.messages(for: destination, after: after, limit: limit)
                } catch {
                    logger?.error("\(error.message)")
                    return
                }
                var published: [(messageID: Int32, id: Int64)] = []
                var setAside = 0
                var interrupted = false
                for message in messages {
                    do {
                        let messageID = try client.publish(topic: message.topic, payload: message.payload, retain: message.retain)
                        published.append((messageID, message.id))
                    } catch where error.code == .invalidArgument {
                        // No retry delivers it (a topic `#`, none, a payload past MQTT's
                        // 256 MB): it moves aside as a dead letter, and the rest go on.
                        do {
                            try await outbox.setAside(message.id, reason: error.message)
                            setAside += 1
                            deadLetters += 1
                            deadLetterReason = error.message
                            observer?(.setAside(reason: error.message))
                            logger?.error("MQTT: message \(message.id) cannot be delivered (\(error.message)); set aside, see 'geotrack outbox'")
                        } catch {
                            logger?.error("\(error.message)")
                            storage = error
                            interrupted = true
                            break
                        }
                    } catch {
                        logger?.error("MQTT: \(error.message)")
                        interrupted = true
                        break
                    }
                }
                pending += state.published(published, requested: limit, setAside: setAside, interrupted: interrupted)
            }
        }
    }
}
