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
        // One thread, so the wake-ups are serialised in the order the timers fall due. That
        // order shows only if all three sleeps were set before the first fell due: a worker
        // held off the processor past a deadline runs the timers due by then before the task
        // starts still waiting (its rule: due timers first), and CI saw 100, 300, 200 so. The
        // run is judged only when each sleep was set in time, and otherwise done again with
        // deadlines ten times as far apart: the test waits for a run that can show the order,
        // not for the clock.
        for step in [100, 1_000, 10_000] {
            let pool = WorkerPool(width: 1)
            let order = Recorded<Int>()
            let set = Recorded<ContinuousClock.Instant>()
            let start = ContinuousClock.now
            await withTaskGroup(of: Void.self) { group in
                for multiple in [3, 1, 2] {
                    group.addTask(executorPreference: pool) {
                        set.append(ContinuousClock.now)
                        try? await Task.sleep(until: start.advanced(by: .milliseconds(step * multiple)), clock: .continuous)
                        order.append(multiple)
                    }
                }
            }
            // Each task started, and woke from its sleep, as a job of the pool.
            #expect(pool.statistics.jobs >= 6)
            guard let last = set.all.max(), last < start.advanced(by: .milliseconds(step)) else { continue }
            #expect(order.all == [1, 2, 3], "deadlines \(step) ms apart")
            return
        }
        Issue.record("three task starts never ran within 10 s of each other: no run could show the order")
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
