import Synchronization

/// Set once by a signal, read by the replay loop.
package final class StopFlag: Sendable {
    private let flag = Atomic(false)
    /// Creates a flag that is not set.
    package init() {}
    /// Whether a stop was asked for.
    package var isSet: Bool { flag.load(ordering: .acquiring) }
    /// Asks for a stop.
    package func set() { flag.store(true, ordering: .releasing) }
}
