import HTTP
import Logging
import Outbox

/// Sends one destination's messages from the `Outbox` to an HTTP server, one request per
/// message, in order, and deletes each once the server answered 2xx: the same guarantees as
/// ``OutboxSender`` over MQTT (at least once, in order, nothing deleted before it was taken).
///
/// What each answer means is ``HTTPDelivery``'s rule: a 4xx about the message sets it aside as
/// a dead letter, a refused login and everything else that waiting may cure is retried after
/// 1 s, doubling to 30 s, as the MQTT client reconnects. It reads the outbox only when told
/// something was queued (``queued()``) or after a retry's delay: no polling.
public actor HTTPOutboxSender: PublishingSender, DrainAnswering {
    /// The outbox key of the messages this sender sends.
    public nonisolated let destination: String
    private let outbox: Outbox
    private let client: HTTPClient
    private let request: @Sendable (OutboxMessage) -> HTTPRequest
    private let logger: Logger?
    private let observer: (@Sendable (OutboxSender.Progress) -> Void)?
    /// The id after which messages are sent.
    private let start: Int64
    private nonisolated let inputs: AsyncStream<Input>
    private nonisolated let input: AsyncStream<Input>.Continuation

    private var connected = false
    private var refusal: Int?
    private var failure: String?
    private var delivered = 0
    /// Why a message the server took could not be removed from the outbox; nothing more is sent after.
    private var storage: OutboxError?
    /// Messages the server took that could not be removed.
    private var unremoved = 0
    /// Messages set aside as dead letters since the sender started, and the last one's reason.
    private var deadLetters = 0
    private var deadLetterReason: String?
    /// Counts the `queued()` inputs read: a read of the outbox that found nothing says it is
    /// exhausted only if none arrived since it began.
    private var generation = 0
    /// Whether the last read found nothing and nothing was queued since.
    private var exhausted = false
    /// Whether ``run()`` has returned: a waiter is then answered at once.
    var hasEnded = false
    /// The callers of ``waitUntilDelivered()``.
    var drainWaiters = DrainWaiters()

    enum Input: Sendable {
        case queued
        case waiting(Int)
    }

    /// The first delay before a retry, and the longest.
    static let firstDelay = Duration.seconds(1)
    static let longestDelay = Duration.seconds(30)
    /// How many messages one read of the outbox takes.
    static let batch = 64

    /// Creates a sender; ``run()`` does the work.
    /// - Parameters:
    ///   - outbox: the outbox the messages wait in.
    ///   - destination: the outbox key of the messages to send.
    ///   - client: the server's client.
    ///   - logger: where the sender says what happens; nil for nothing.
    ///   - request: the request that carries a message (its URL, body and headers).
    ///   - observer: told of the server's changes and of deliveries, on the sender's executor.
    ///   - after: send only messages newer than this id; those before stay in the outbox
    ///     (queued positions held while location access does not allow them to leave).
    public init(outbox: Outbox, destination: String, client: HTTPClient, logger: Logger? = nil,
                observer: (@Sendable (OutboxSender.Progress) -> Void)? = nil, after: Int64 = 0,
                request: @escaping @Sendable (OutboxMessage) -> HTTPRequest) {
        start = max(0, after)
        self.outbox = outbox
        self.destination = destination
        self.client = client
        self.request = request
        self.logger = logger
        self.observer = observer
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

    var refusalOutcome: OutboxSender.DrainOutcome? { refusal.map { .refused(code: Int32($0)) } }

    /// Ends ``run()`` once the inputs already given are handled; a request in flight is
    /// abandoned (its message stays in the outbox), a retry's delay cut short.
    public nonisolated func stop() {
        input.finish()
    }

    /// Whether the server answered the last request.
    public var isConnected: Bool { connected }
    /// How many messages the server took since the sender started.
    public var acknowledgedCount: Int { delivered }
    /// The status of the server's refusal (401, 403, 407), while it refuses.
    public var refusalStatus: Int? { refusal }
    /// The server's refusal, in words, while it refuses.
    public var refusalDescription: String? { refusal.map(HTTPDelivery.refusalReason) }
    /// Why the last request went unanswered or was answered "not now", in words; nil once one
    /// was delivered.
    public var failureDescription: String? { failure }
    /// Why the outbox could not remove what the server took (or set a message aside), once it could not.
    public var storageFailure: OutboxError? { storage }
    /// How many messages the server took that could not be removed from the outbox.
    public var unremovedCount: Int { unremoved }
    /// How many messages were set aside as dead letters since the sender started.
    public var setAsideCount: Int { deadLetters }
    /// Why the last one was set aside (the status the server answered).
    public var setAsideReason: String? { deadLetterReason }

    /// Sends until stopped (``stop()``) or cancelled; what is not delivered stays in the outbox.
    public func run() async {
        let (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let delivery = Task { await deliver(wakes) }
        for await next in inputs {
            if Task.isCancelled { break }
            switch next {
            case .queued:
                generation += 1
                exhausted = false
                wake.yield()
            case .waiting(let id):
                drainWaiters.questionRead(id)
                // Halted by the outbox, nothing more will be sent: the caller reads why.
                if exhausted || storage != nil { drainWaiters.answer(.delivered) }
            }
        }
        wake.finish()
        delivery.cancel()
        await delivery.value
        drainWaiters.answer(refusalOutcome ?? .delivered, includingAsking: true)
        hasEnded = true
    }

    /// Waits until everything queued so far was delivered (or set aside) and deleted, or the
    /// server refused the login; nil when the waiting task was cancelled. The caller bounds
    /// the wait. The question goes through the same inputs as ``queued()``, as over MQTT.
    public func waitUntilDelivered() async -> OutboxSender.DrainOutcome? {
        await waitForDrain()
    }

    /// The delivery loop: reads what waits, sends it in order, and sleeps until woken when
    /// the outbox is exhausted.
    private func deliver(_ wakes: AsyncStream<Void>) async {
        var wakeups = wakes.makeAsyncIterator()
        var cursor = start
        var delay = Self.firstDelay
        while !Task.isCancelled {
            let reading = generation
            let messages: [OutboxMessage]
            do {
                messages = try await outbox.messages(for: destination, after: cursor, limit: Self.batch)
            } catch {
                logger?.error("\(error.message)")
                return
            }
            if messages.isEmpty {
                if generation == reading {
                    exhausted = true
                    drainWaiters.answer(.delivered)
                    // Woken by queued(); nil once stopped.
                    guard await wakeups.next() != nil else { return }
                }
                continue
            }
            var index = 0
            while index < messages.count {
                let message = messages[index]
                let outcome = await client.send(request(message))
                if Task.isCancelled { return }
                switch HTTPDelivery(outcome) {
                case .delivered:
                    do {
                        try await outbox.remove([message.id])
                    } catch {
                        // Taken but still queued: whatever is sent next would be sent again
                        // too, so nothing more is sent; the caller says why.
                        logger?.error("\(error.message)")
                        delivered += 1
                        halt(error, unremoved: 1)
                        return
                    }
                    cursor = message.id
                    index += 1
                    delay = Self.firstDelay
                    delivered += 1
                    refusal = nil
                    failure = nil
                    if !connected {
                        connected = true
                        logger?.debug("HTTP: \(client.endpoint) took a message")
                        observer?(.connected)
                    }
                    observer?(.delivered(1))
                case .deadLetter(let reason):
                    do {
                        try await outbox.setAside(message.id, reason: reason)
                    } catch {
                        logger?.error("\(error.message)")
                        halt(error, unremoved: 0)
                        return
                    }
                    deadLetters += 1
                    deadLetterReason = reason
                    observer?(.setAside(reason: reason))
                    logger?.error("HTTP: message \(message.id) cannot be delivered (\(reason)); set aside, see 'geotrack outbox'")
                    cursor = message.id
                    index += 1
                case .refused(let status):
                    connected = false
                    if refusal != status {
                        refusal = status
                        logger?.warning("HTTP: \(client.endpoint) refused the login (\(HTTPDelivery.refusalReason(status)))")
                        observer?(.refused(code: Int32(status)))
                        drainWaiters.answer(.refused(code: Int32(status)), includingAsking: true)
                    }
                    guard await pause(Self.longestDelay) else { return }
                case .retry(let reason):
                    connected = false
                    observer?(.unreachable)
                    observer?(.unavailable(reason: reason))
                    // Said once until it changes or a message goes through, as over MQTT.
                    if failure != reason {
                        failure = reason
                        logger?.error("HTTP: cannot deliver to \(client.endpoint): \(reason); retrying")
                    }
                    guard await pause(delay) else { return }
                    delay = min(delay * 2, Self.longestDelay)
                case .stopped:
                    return
                }
            }
        }
    }

    /// The outbox cannot record what happened to a message: sends nothing more, and answers
    /// those waiting for the outbox to empty, as it will not.
    private func halt(_ error: OutboxError, unremoved count: Int) {
        storage = error
        unremoved += count
        drainWaiters.answer(.delivered)
    }

    /// Sleeps before a retry; false when cancelled (stopped).
    private func pause(_ duration: Duration) async -> Bool {
        do {
            try await Task.sleep(for: duration)
            return true
        } catch {
            return false
        }
    }
}
