import CGPS
import Synchronization

/// Lets a cancelled task wake the reader thread blocked on gpsd's socket.
///
/// The reader registers its socket once connected and unregisters it before
/// closing, both under the lock, so ``interrupt()`` never shuts down a
/// descriptor number the system has already handed to someone else.
final class GPSDInterrupter: Sendable {
    private struct State {
        var descriptor: Int32?
        var interrupted = false
    }

    private let state = Mutex(State())

    /// Whether ``interrupt()`` was called.
    var isInterrupted: Bool { state.withLock { $0.interrupted } }

    /// Stops the reader: shuts the registered socket down, which ends a blocked
    /// poll(2) or recv(2) at once, and makes later ``register(_:)`` calls refuse.
    func interrupt() {
        state.withLock { state in
            state.interrupted = true
            if let descriptor = state.descriptor {
                _ = geotrack_shutdown(descriptor)
            }
        }
    }

    /// Registers the reader's socket; returns `false` when already interrupted.
    func register(_ descriptor: Int32) -> Bool {
        state.withLock { state in
            if state.interrupted { return false }
            state.descriptor = descriptor
            return true
        }
    }

    /// Forgets the socket before it is closed.
    func unregister() {
        state.withLock { $0.descriptor = nil }
    }
}
