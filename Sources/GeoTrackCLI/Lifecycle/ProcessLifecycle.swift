import Dispatch
import Foundation
import Synchronization

/// The process's lifecycle as a stream of ``LifecycleState``, fed by DispatchSource signal sources.
///
/// Each watched signal's default action is turned off first (`SIG_IGN`), so only the
/// dispatch source sees it: Ctrl-C no longer kills the process on the spot but starts a
/// graceful shutdown, and Ctrl-Z no longer stops it before the terminal is restored
/// (the consumer stops the process itself with ``stopProcess()``).
package final class ProcessLifecycle: Sendable {
    private let sources: Mutex<[any DispatchSourceSignal]>
    private let continuation: AsyncStream<LifecycleState>.Continuation
    /// The states, starting with `.active`. One consumer.
    package let states: AsyncStream<LifecycleState>

    /// Starts watching `signals` (by default SIGTSTP, SIGCONT, SIGTERM, SIGINT, SIGHUP).
    package init(signals: [Int32] = LifecycleState.signals, queue: DispatchQueue = DispatchQueue(label: "geotrack.lifecycle")) {
        let (states, continuation) = AsyncStream.makeStream(of: LifecycleState.self, bufferingPolicy: .unbounded)
        self.states = states
        self.continuation = continuation
        continuation.yield(.active)
        var created: [any DispatchSourceSignal] = []
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                if let state = LifecycleState(signal: number) {
                    continuation.yield(state)
                }
            }
            source.resume()
            created.append(source)
        }
        sources = Mutex(created)
    }

    /// Stops watching and ends the stream. Signals keep being ignored until ``restoreDefaults()``.
    package func cancel() {
        let all = sources.withLock { sources in
            defer { sources.removeAll() }
            return sources
        }
        for source in all { source.cancel() }
        continuation.finish()
    }

    /// Stops the process the way Ctrl-Z would have (SIGSTOP cannot be caught); returns when continued.
    package static func stopProcess() {
        kill(getpid(), SIGSTOP)
    }

    deinit {
        cancel()
    }
}
