import Executors
#if canImport(Glibc)
import Glibc
#endif

/// The one lifecycle of a run that lasts until something ends it: the tracker (`watch`, `replay`,
/// `sky`, `stats`), the fast `replay --json` and `fleet` all take their Ctrl-C here.
///
/// It is the ``ProcessLifecycle``'s delegate, and turns its callbacks, and a window's resizes
/// (SIGWINCH) when asked for, into one stream of ``Event``s that the run reads and answers in its
/// own way (a graceful shutdown of the tracker's services, the fast replay's stop flag, the
/// fleet view's last draw). ``end()`` stops the watching; the signals then stay ignored, so a
/// late Ctrl-C cannot cut the run's shutdown short.
@MainActor
package final class RunLifecycle: ProcessLifecycleDelegate {
    /// What the run is asked to do.
    package enum Event: Sendable, Equatable {
        /// SIGTERM, SIGINT or SIGHUP: end gracefully.
        case terminate(signal: Int32)
        /// Ctrl-Z (SIGTSTP): give the terminal back, then stop the process (``ProcessLifecycle/stopProcess()``).
        case suspend
        /// SIGCONT: take the terminal back.
        case resume
        /// SIGWINCH: the window has a new size.
        case resize
    }

    /// The events, in the order the signals came; finished by ``end()``.
    package nonisolated let events: AsyncStream<Event>
    private nonisolated let continuation: AsyncStream<Event>.Continuation
    private let process: ProcessLifecycle
    private let resizes: SignalWatch?

    /// Starts watching the signals that end a run, and, for a run that owns the terminal, Ctrl-Z
    /// and SIGCONT (`suspends`) and the window's size (`resizes`). A run that does not suspend
    /// leaves Ctrl-Z its default action.
    package convenience init(suspends: Bool, resizes: Bool) {
        self.init(process: ProcessLifecycle(signals: suspends ? LifecycleState.signals : [SIGTERM, SIGINT, SIGHUP]),
                  resizes: resizes)
    }

    /// Follows `process` (a test passes one that watches no signal and feeds it).
    package init(process: ProcessLifecycle, resizes: Bool) {
        let (events, continuation) = AsyncStream.makeStream(of: Event.self)
        self.events = events
        self.continuation = continuation
        self.process = process
        // Straight from the signal thread: a resize needs nothing of the main actor.
        self.resizes = resizes ? SignalWatch([SIGWINCH]) { _ in continuation.yield(.resize) } : nil
        process.delegate = self
    }

    package func processDidEnterBackground(_ lifecycle: ProcessLifecycle) {
        continuation.yield(.suspend)
    }

    package func processWillEnterForeground(_ lifecycle: ProcessLifecycle) {
        continuation.yield(.resume)
    }

    package func processWillTerminate(_ lifecycle: ProcessLifecycle, signal: Int32) {
        continuation.yield(.terminate(signal: signal))
    }

    /// Stops watching and finishes ``events``.
    package func end() {
        resizes?.cancel()
        process.cancel()
        continuation.finish()
    }
}
