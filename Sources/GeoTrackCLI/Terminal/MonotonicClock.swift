#if canImport(Glibc)
import Glibc
#endif

/// The clock the terminal's redraws, the progress bar and the GPX file's syncs are timed on:
/// seconds that only go forward, whatever happens to the wall clock.
package enum MonotonicClock {
    /// Seconds on the monotonic clock (`CLOCK_MONOTONIC`), as a function, so that a test can
    /// hand a display or a writer a clock of its own instead.
    package static let seconds: @Sendable () -> Double = {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
