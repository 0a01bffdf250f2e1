/// A counting semaphore for GeoTrack's own threads (``DetachedThread``): `wait()` blocks the
/// calling thread until a `signal()` gives it a unit.
///
/// What `DispatchSemaphore` does, without Dispatch: GeoTrack's threads are its own and its
/// tasks run on its own executors, so nothing else of Dispatch is used. Never wait on a thread
/// that runs Swift tasks.
package final class ThreadSemaphore: Sendable {
    private let lock = ConditionLock()
    // Guarded by `lock`.
    nonisolated(unsafe) private var units: Int

    /// A semaphore holding `value` units.
    package init(value: Int = 0) {
        units = value
    }

    /// Takes a unit, blocking the calling thread until one is there.
    package func wait() {
        lock.lock()
        while units == 0 { lock.wait() }
        units -= 1
        lock.unlock()
    }

    /// Gives back a unit, waking one waiting thread.
    package func signal() {
        lock.lock()
        units += 1
        lock.signal()
        lock.unlock()
    }
}
