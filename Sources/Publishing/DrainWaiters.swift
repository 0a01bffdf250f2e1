/// The callers waiting in a sender's `waitUntilDelivered()`, kept by the sender's actor; the
/// same for MQTT (``OutboxSender``) and HTTP (``HTTPOutboxSender``).
///
/// A question goes through the sender's inputs behind every `queued()` before it, so that it
/// is answered from a state that has read all the caller queued. Until the sender reads it
/// there, its caller is *asking*; then it is *read*, and answered once the outbox is exhausted.
/// When the sender ends or the destination refuses the login, every caller is answered.
struct DrainWaiters {
    typealias Waiter = CheckedContinuation<OutboxSender.DrainOutcome?, Never>

    /// Callers whose question the sender has read.
    private var read: [Int: Waiter] = [:]
    /// Callers whose question is still in the sender's inputs.
    private var asking: [Int: Waiter] = [:]
    private var nextID = 0

    /// A number for a new question, unique for this sender.
    mutating func makeID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    /// Holds `waiter` while question `id` goes through the sender's inputs.
    mutating func ask(_ id: Int, _ waiter: Waiter) {
        asking[id] = waiter
    }

    /// The sender read question `id` from its inputs: it now knows all its caller queued.
    mutating func questionRead(_ id: Int) {
        if let waiter = asking.removeValue(forKey: id) { read[id] = waiter }
    }

    /// Takes back the caller of question `id`, read or not, for an answer of its own.
    mutating func remove(_ id: Int) -> Waiter? {
        read.removeValue(forKey: id) ?? asking.removeValue(forKey: id)
    }

    /// Answers the callers whose question was read; with `includingAsking`, those still in
    /// the inputs too (the sender ended, or the destination refused).
    mutating func answer(_ outcome: OutboxSender.DrainOutcome, includingAsking: Bool = false) {
        var answered = Array(read.values)
        read = [:]
        if includingAsking {
            answered += asking.values
            asking = [:]
        }
        for waiter in answered { waiter.resume(returning: outcome) }
    }
}
