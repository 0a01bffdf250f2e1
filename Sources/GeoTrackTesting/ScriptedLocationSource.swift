import GPSReports
import LocationKit

/// A ``LocationSource`` that plays a script of events and pauses, timed by a clock you
/// control — give it a ``ManualClock`` to test location code deterministically.
///
/// Each ``events()`` call plays the script from the start. A `.wait` step sleeps on the
/// clock, so the next events arrive only when the test advances it; the session ends
/// after the last step, or at once when the consuming task is cancelled.
///
/// ```swift
/// let clock = ManualClock()
/// let source = ScriptedLocationSource.track(fixes, interval: .seconds(1), clock: clock)
/// let manager = LocationManager(source: source, clock: clock, authorizationStore: store, logger: logger)
/// ```
public struct ScriptedLocationSource: LocationSource {
    /// Played back, not measured: locations are marked simulated.
    public var sourceInformation: SourceInformation { .simulated }

    /// One step of a script.
    public enum Step: Sendable {
        /// Deliver this event.
        case event(SourceEvent)
        /// Sleep this long on the clock before the next step.
        case wait(Duration)

        /// Deliver a fix.
        public static func fix(_ fix: Fix) -> Step { .event(.report(.fix(fix))) }
        /// Deliver a state change.
        public static func state(_ state: SourceState) -> Step { .event(.state(state)) }
    }

    /// The script.
    public let steps: [Step]
    /// The clock the waits sleep on.
    public let clock: any Clock<Duration>

    /// Creates a source playing `steps`.
    public init(_ steps: [Step], clock: any Clock<Duration>) {
        self.steps = steps
        self.clock = clock
    }

    /// A receiver that appears and then reports `fixes`, one every `interval` (no wait when `nil`).
    public static func track(_ fixes: [Fix], interval: Duration? = nil, clock: any Clock<Duration>) -> ScriptedLocationSource {
        var steps: [Step] = [.state(.connected), .state(.receiverPresent)]
        for (index, fix) in fixes.enumerated() {
            if index > 0, let interval { steps.append(.wait(interval)) }
            steps.append(.fix(fix))
        }
        return ScriptedLocationSource(steps, clock: clock)
    }

    /// Starts playing the script.
    public func events() -> Events {
        Events(steps: steps, clock: clock)
    }

    /// One play of the script.
    public struct Events: AsyncSequence, Sendable {
        /// Never fails; ends after the last step or on cancellation.
        public typealias Failure = Never

        let steps: [Step]
        let clock: any Clock<Duration>

        /// Creates the iterator.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(steps: steps[...], clock: clock)
        }

        /// Plays the script, pulled one event at a time.
        public struct AsyncIterator: AsyncIteratorProtocol {
            var steps: ArraySlice<Step>
            let clock: any Clock<Duration>

            /// The next event, after any waits before it; `nil` at the end or when cancelled.
            public mutating func next() async -> SourceEvent? {
                while let step = steps.popFirst() {
                    switch step {
                    case .event(let event):
                        if Task.isCancelled { return nil }
                        return event
                    case .wait(let duration):
                        do {
                            try await clock.sleep(for: duration)
                        } catch {
                            steps = []
                            return nil
                        }
                    }
                }
                return nil
            }
        }
    }
}
