import Synchronization

/// A clock that moves only when a test tells it to.
///
/// Code under test takes `some Clock<Duration>`; give it a `ManualClock` and
/// call ``advance(by:)`` to let its timers fire. Nothing waits on wall-clock
/// time, so tests that use it are deterministic and fast.
///
/// To advance only once the code under test is actually waiting, call
/// ``sleepers(atLeast:)`` first: it suspends until that many sleeps are pending.
public final class ManualClock: Clock, Sendable {
    /// A point in manual time: the duration since the clock was created.
    public struct Instant: InstantProtocol, CustomStringConvertible {
        /// Time since the clock's zero.
        public var offset: Duration

        /// Creates an instant at `offset` after zero.
        public init(offset: Duration) { self.offset = offset }

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        /// How long from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        /// Whether `lhs` comes before `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
        /// The offset from zero, as `t+…`.
        public var description: String { "t+\(offset)" }
    }

    private struct Sleeper {
        let id: UInt64
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct Waiter {
        let count: Int
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var nextID: UInt64 = 0
        var sleepers: [Sleeper] = []
        var cancelled: Set<UInt64> = []
        var waiters: [Waiter] = []
    }

    private let state = Mutex(State())

    /// Creates a clock at time zero.
    public init() {}

    /// The current manual time.
    public var now: Instant { state.withLock { $0.now } }

    /// The smallest step this clock can take.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// How many sleeps are pending.
    public var pendingSleeps: Int { state.withLock { $0.sleepers.count } }

    /// Suspends until `deadline`, which arrives only through ``advance(by:)`` or ``advance(to:)``.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { s -> UInt64 in s.nextID += 1; return s.nextID }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Action { case resume, cancel, wait([CheckedContinuation<Void, Never>]) }
                let action = state.withLock { s -> Action in
                    if s.cancelled.remove(id) != nil { return .cancel }
                    if deadline <= s.now { return .resume }
                    s.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return .wait(Self.readyWaiters(&s))
                }
                switch action {
                case .resume: continuation.resume()
                case .cancel: continuation.resume(throwing: CancellationError())
                case .wait(let ready): ready.forEach { $0.resume() }
                }
            }
        } onCancel: {
            let sleeper = state.withLock { s -> Sleeper? in
                if let index = s.sleepers.firstIndex(where: { $0.id == id }) {
                    return s.sleepers.remove(at: index)
                }
                s.cancelled.insert(id)
                return nil
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward by `duration`, waking every sleep whose deadline has come.
    public func advance(by duration: Duration) {
        advance(to: now.advanced(by: duration))
    }

    /// Moves time forward to `instant` (never backward), waking every sleep whose deadline has come.
    public func advance(to instant: Instant) {
        let due = state.withLock { s -> [Sleeper] in
            if instant > s.now { s.now = instant }
            let now = s.now
            let due = s.sleepers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
            s.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Suspends until at least `count` sleeps are pending on this clock.
    ///
    /// Use it before ``advance(by:)`` so the code under test is known to be
    /// waiting on the clock, rather than sleeping in the test and hoping.
    public func sleepers(atLeast count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { s -> Bool in
                if s.sleepers.count >= count { return true }
                s.waiters.append(Waiter(count: count, continuation: continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    private static func readyWaiters(_ s: inout State) -> [CheckedContinuation<Void, Never>] {
        let count = s.sleepers.count
        let ready = s.waiters.filter { $0.count <= count }.map(\.continuation)
        s.waiters.removeAll { $0.count <= count }
        return ready
    }
}
