/// A sender that answers `waitUntilDelivered()` through its own inputs (``DrainWaiters``):
/// what ``OutboxSender`` and ``HTTPOutboxSender`` share, so that both ask and answer alike.
protocol DrainAnswering: Actor {
    /// The callers waiting for the outbox to empty.
    var drainWaiters: DrainWaiters { get set }
    /// `.refused` while the destination refuses the login, else nil.
    var refusalOutcome: OutboxSender.DrainOutcome? { get }
    /// Whether `run()` has returned: nothing more will be read or delivered.
    var hasEnded: Bool { get }
    /// Puts question `id` in the inputs, behind what was queued before it; false when the
    /// inputs have ended and it will never be read.
    nonisolated func sendQuestion(_ id: Int) -> Bool
}

extension DrainAnswering {
    /// Waits until everything queued so far was delivered and deleted, or the destination
    /// refused the login; nil when the waiting task was cancelled. The caller bounds the wait.
    ///
    /// Answered from the sender's state as it was when asked (a `queued()` still in the inputs
    /// unread), a run ended with its last messages unsent while the destination was up, or said
    /// they waited though it had taken them: so the question waits its turn in the inputs.
    func waitForDrain() async -> OutboxSender.DrainOutcome? {
        if let refused = refusalOutcome { return refused }
        if hasEnded { return .delivered }
        let id = drainWaiters.makeID()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if Task.isCancelled {
                    continuation.resume(returning: nil)
                    return
                }
                drainWaiters.ask(id, continuation)
                // The inputs ended: run() answers what it holds as it returns, or already did.
                if !sendQuestion(id), hasEnded {
                    drainWaiters.remove(id)?.resume(returning: refusalOutcome ?? .delivered)
                }
            }
        } onCancel: {
            Task { await self.cancelDrainWaiter(id) }
        }
    }

    private func cancelDrainWaiter(_ id: Int) {
        drainWaiters.remove(id)?.resume(returning: nil)
    }
}
