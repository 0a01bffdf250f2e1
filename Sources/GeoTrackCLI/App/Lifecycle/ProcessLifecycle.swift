import Executors
import FoundationEssentials
import GeoTrackReactive
#if canImport(Glibc)
import Glibc
#endif

/// Receives the process's lifecycle, the way a UIApplicationDelegate receives an app's.
@MainActor
package protocol ProcessLifecycleDelegate: AnyObject {
    /// Ctrl-Z (SIGTSTP): the process is about to stop; give the terminal back.
    func processDidEnterBackground(_ lifecycle: ProcessLifecycle)
    /// SIGCONT: the process runs again; take the terminal back.
    func processWillEnterForeground(_ lifecycle: ProcessLifecycle)
    /// SIGTERM, SIGINT or SIGHUP: shut down gracefully.
    func processWillTerminate(_ lifecycle: ProcessLifecycle, signal: Int32)
}

/// The process's lifecycle, fed by a ``SignalWatch``: a delegate, and through its delegate
/// proxy a stream (`lifecycle.rx.state`), like UIApplication's state for an app.
///
/// Each watched signal is caught, so its default action no longer happens: Ctrl-C no longer
/// kills the process on the spot but starts a graceful shutdown, and Ctrl-Z no longer stops
/// it before the terminal is restored (the consumer stops the process itself with
/// ``stopProcess()``).
@MainActor
package final class ProcessLifecycle: HasDelegateSlot, ReactiveCompatible {
    /// Where the delegate and, once `rx` is used, the proxy live.
    package let delegateSlot = DelegateSlot<any ProcessLifecycleDelegate>()
    /// The delegate (held weakly).
    package var delegate: (any ProcessLifecycleDelegate)? {
        get { delegateSlot.delegate }
        set { delegateSlot.delegate = newValue }
    }
    /// The current state.
    package private(set) var state: LifecycleState = .active
    private var watch: SignalWatch?

    /// Starts watching `signals` (by default SIGTSTP, SIGCONT, SIGTERM, SIGINT, SIGHUP); each
    /// is received on the main actor, in the order they came.
    package init(signals: [Int32] = LifecycleState.signals) {
        guard !signals.isEmpty else { return }
        watch = SignalWatch(signals) { [weak self] number in
            // Said at once, on the watch's thread: a write the main actor is blocked in then
            // gives up (OutputWrite), so the hop below is not held up by a reader that stopped.
            if case .terminating? = LifecycleState(signal: number) { OutputWrite.terminate() }
            MainQueue.async { MainActor.assumeIsolated { self?.receive(number) } }
        }
    }

    /// Takes one signal into account: a new state, and the delegate call that goes with it.
    package func receive(_ number: Int32) {
        guard let new = LifecycleState(signal: number) else { return }
        state = new
        let receiver = delegateSlot.receiver
        switch new {
        case .active: break
        case .background: receiver?.processDidEnterBackground(self)
        case .foreground: receiver?.processWillEnterForeground(self)
        case .terminating(let signal): receiver?.processWillTerminate(self, signal: signal)
        }
    }

    /// Stops watching. The signals stay ignored, so a late Ctrl-C cannot cut the shutdown short.
    package func cancel() {
        watch?.cancel()
        watch = nil
        (delegateSlot.proxy as? ProcessLifecycleDelegateProxy)?.finishStreams()
    }

    /// Stops the process the way Ctrl-Z would have (SIGSTOP cannot be caught); returns when continued.
    nonisolated package static func stopProcess() {
        kill(getpid(), SIGSTOP)
    }
}

/// The lifecycle's delegate proxy: forwards each callback to the delegate and emits the new state on `rx.state`.
package final class ProcessLifecycleDelegateProxy: DelegateProxy<ProcessLifecycle, any ProcessLifecycleDelegate>,
    DelegateProxyType, ProcessLifecycleDelegate {
    /// Creates the proxy; use `ProcessLifecycleDelegateProxy.proxy(for:)`.
    package required init(parentObject: ProcessLifecycle) {
        super.init(parentObject: parentObject)
    }

    package func processDidEnterBackground(_ lifecycle: ProcessLifecycle) {
        forward(.lifecycleState, .background) { $0.processDidEnterBackground(lifecycle) }
    }

    package func processWillEnterForeground(_ lifecycle: ProcessLifecycle) {
        forward(.lifecycleState, .foreground) { $0.processWillEnterForeground(lifecycle) }
    }

    package func processWillTerminate(_ lifecycle: ProcessLifecycle, signal: Int32) {
        forward(.lifecycleState, .terminating(signal: signal)) { $0.processWillTerminate(lifecycle, signal: signal) }
    }
}

extension DelegateEvent where Element == LifecycleState {
    /// Every lifecycle callback, as the state it leads to.
    static var lifecycleState: DelegateEvent<LifecycleState> { DelegateEvent("lifecycleState") }
}

@MainActor
extension Reactive where Base == ProcessLifecycle {
    /// The current state, then each change.
    package var state: EventStream<LifecycleState> {
        ProcessLifecycleDelegateProxy.proxy(for: base).events(.lifecycleState, startingWith: base.state)
    }
}
