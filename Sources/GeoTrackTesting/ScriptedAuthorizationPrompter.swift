import LocationKit
import Synchronization

/// An ``AuthorizationPrompter`` for tests: answers every prompt with a fixed decision, or
/// holds each prompt until the test calls ``respond(_:)``. Requests for full accuracy get
/// `fullAccuracy`, and their purposes are recorded.
public final class ScriptedAuthorizationPrompter: AuthorizationPrompter {
    private struct State {
        var prompts: [AuthorizationLevel] = []
        var waiting: [CheckedContinuation<AuthorizationDecision, Never>] = []
        var waitersForPrompt: [CheckedContinuation<Void, Never>] = []
        var fullAccuracyPurposes: [String] = []
    }

    private let fixed: AuthorizationDecision?
    private let fullAccuracy: Bool
    private let state = Mutex(State())

    /// Answers every prompt with `decision` at once; with `nil`, waits for ``respond(_:)``.
    /// Answers each request for full accuracy with `fullAccuracy`.
    public init(answering decision: AuthorizationDecision? = nil, fullAccuracy: Bool = false) {
        fixed = decision
        self.fullAccuracy = fullAccuracy
    }

    /// The purposes of the requests for full accuracy so far, in order.
    public var fullAccuracyPurposes: [String] { state.withLock { $0.fullAccuracyPurposes } }

    /// Records the purpose and answers with the scripted answer.
    public func requestTemporaryFullAccuracy(purpose: String) async -> Bool {
        state.withLock { $0.fullAccuracyPurposes.append(purpose) }
        return fullAccuracy
    }

    /// The levels asked for so far, in order.
    public var prompts: [AuthorizationLevel] { state.withLock { $0.prompts } }

    /// Records the prompt and answers it.
    public func requestAuthorization(for level: AuthorizationLevel) async -> AuthorizationDecision {
        if let fixed {
            let ready = state.withLock { s in
                s.prompts.append(level)
                defer { s.waitersForPrompt.removeAll() }
                return s.waitersForPrompt
            }
            ready.forEach { $0.resume() }
            return fixed
        }
        return await withCheckedContinuation { continuation in
            let ready = state.withLock { s in
                s.prompts.append(level)
                s.waiting.append(continuation)
                defer { s.waitersForPrompt.removeAll() }
                return s.waitersForPrompt
            }
            ready.forEach { $0.resume() }
        }
    }

    /// Suspends until a prompt is showing (or was shown).
    public func waitForPrompt() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let shown = state.withLock { s -> Bool in
                if !s.prompts.isEmpty { return true }
                s.waitersForPrompt.append(continuation)
                return false
            }
            if shown { continuation.resume() }
        }
    }

    /// Answers every prompt that is waiting.
    public func respond(_ decision: AuthorizationDecision) {
        let waiting = state.withLock { s in
            defer { s.waiting.removeAll() }
            return s.waiting
        }
        waiting.forEach { $0.resume(returning: decision) }
    }
}
