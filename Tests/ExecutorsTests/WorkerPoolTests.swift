// Only with the custom executors (GeoTrackExecutors.swift says when).
#if compiler(>=6.3) && compiler(<6.4) && !GEOTRACK_DEFAULT_EXECUTORS
@testable import Executors
import Foundation
import Synchronization
import Testing

@Suite("Worker pool")
struct WorkerPoolTests {
    @Test("tasks preferring the pool run as its jobs, on at most `width` threads started on demand")
    func runsOnItsThreads() async {
        let pool = WorkerPool(width: 2)
        #expect(pool.statistics == (threads: 0, jobs: 0))
        let results = await withTaskGroup(of: Int.self) { group in
            for index in 0..<20 {
                group.addTask(executorPreference: pool) { index * 2 }
            }
            return await group.reduce(0, +)
        }
        #expect(results == 380)
        let statistics = pool.statistics
        #expect((1...2).contains(statistics.threads))
        #expect(statistics.jobs >= 20)
    }

    @Test("sleeps come back through the pool's timers, the earliest deadline first")
    func timersInDeadlineOrder() async throws {
        let pool = WorkerPool(width: 1)
        let order = Recorded<Int>()
        // One thread, so the wake-ups are serialised in the order the timers fall due. The
        // deadlines are counted from one instant: on a loaded machine a task may start 100 ms
        // after the one added before it, and a sleep counted from its own start then fell due
        // after a longer one's (CI saw 100, 300, 200).
        let start = ContinuousClock.now
        await withTaskGroup(of: Void.self) { group in
            for milliseconds in [300, 100, 200] {
                group.addTask(executorPreference: pool) {
                    try? await Task.sleep(until: start.advanced(by: .milliseconds(milliseconds)), clock: .continuous)
                    order.append(milliseconds)
                }
            }
        }
        #expect(order.all == [100, 200, 300])
        // Each task started, and woke from its sleep, as a job of the pool.
        #expect(pool.statistics.jobs >= 6)
    }

    @Test("a sleep lasts at least as long as asked")
    func sleepIsNotEarly() async throws {
        let pool = WorkerPool(width: 2)
        let clock = ContinuousClock()
        let elapsed = await Task(executorPreference: pool) {
            await clock.measure { try? await Task.sleep(for: .milliseconds(20)) }
        }.value
        #expect(elapsed >= .milliseconds(20))
    }

    @Test("an absurd sleep neither traps nor fires: cancelling it ends it")
    func hugeSleep() async {
        let pool = WorkerPool(width: 1)
        let task = Task(executorPreference: pool) {
            try await Task.sleep(for: .seconds(Int64.max / 2))
        }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }
}
#endif
