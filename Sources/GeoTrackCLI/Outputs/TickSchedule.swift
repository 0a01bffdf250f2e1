import Synchronization

/// When the outputs' timer runs: at the moment an output has something due without an update
/// (a line held back by the redraw interval, a countdown's next second, a GPX fsync), and never
/// while nothing is due, so that an idle tracker does not wake up at all.
///
/// The timer parks on a doorbell while nothing is due; an update rings it only if the timer is
/// parked and the update made something due. The timer marks itself parked before it looks, so
/// an update that lands between its look and its wait still rings.
package final class TickSchedule: Sendable {
    private let parked = Mutex(false)
    private let bell: AsyncStream<Void>
    private let ring: AsyncStream<Void>.Continuation

    /// Creates a schedule whose timer is not running yet.
    package init() {
        (bell, ring) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// After an update: wakes a parked timer if `due` now has a time.
    package func updated(due: () -> Double?) {
        guard parked.withLock({ $0 }), due() != nil else { return }
        ring.yield()
    }

    /// Runs the timer until the task is cancelled: sleeps on `clock` until `due` says, then calls
    /// `tick`; waits for the doorbell while `due` is `nil`.
    package func run<C: Clock>(clock: C, due: () -> Double?, tick: () -> Void) async where C.Duration == Duration {
        var rings = bell.makeAsyncIterator()
        while !Task.isCancelled {
            parked.withLock { $0 = true }
            guard let delay = due() else {
                // Returns nil once the task is cancelled.
                if await rings.next() == nil { return }
                continue
            }
            parked.withLock { $0 = false }
            // At most a day at a time: a huge gpx.sync_interval must not overflow the duration,
            // and a timer that wakes with nothing due simply looks again.
            let wait = min(max(delay, 0), 86_400)
            do {
                try await clock.sleep(for: .nanoseconds(Int64(wait * 1e9)))
            } catch {
                return
            }
            tick()
        }
    }

    /// Ends a running timer's wait for the doorbell (the run is over).
    package func finish() {
        ring.finish()
    }
}
