#if canImport(Glibc)
import Glibc
#endif

/// A mutex with one condition variable (waits time out on CLOCK_MONOTONIC), for threads that
/// must sleep until something happens: `Synchronization.Mutex` cannot wait.
///
/// The owner of the pthread objects: they live on the heap (a pthread mutex must not move)
/// and are destroyed in `deinit`.
package final class ConditionLock: @unchecked Sendable {
    // Only touched through pthread calls, which synchronise themselves.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }
    package func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` with the lock held.
    package func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Wakes one waiting thread.
    package func signal() { pthread_cond_signal(condition) }
    /// Wakes every waiting thread.
    package func broadcast() { pthread_cond_broadcast(condition) }

    /// Waits (the lock held) until signalled; may return spuriously.
    package func wait() { pthread_cond_wait(condition, mutex) }

    /// Waits (the lock held) until signalled or CLOCK_MONOTONIC reaches `deadline` (nanoseconds).
    package func wait(until deadline: UInt64) {
        var time = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        pthread_cond_timedwait(condition, mutex, &time)
    }
}

/// CLOCK_MONOTONIC now, in nanoseconds.
func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}
