// Only with the custom executors (GeoTrackExecutors.swift says when).
#if compiler(>=6.3) && compiler(<6.4) && !GEOTRACK_DEFAULT_EXECUTORS
@_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The global executor without Dispatch: a few threads run tasks' jobs, and the first idle one
/// also waits for the earliest timer (`Task.sleep`, `clock.sleep`).
///
/// Dispatch's pool on Linux arms a one-second monitoring timer as soon as its first worker
/// starts, so a process that has ever run a task wakes every second forever. Here an idle
/// worker waits in `pthread_cond_wait`, or in `pthread_cond_timedwait` until the next timer,
/// and nothing else: no work, no wake-up.
final class WorkerPool: TaskExecutor, SchedulingExecutor, @unchecked Sendable {
    private struct Timer {
        let deadline: UInt64
        let job: UnownedJob
    }

    // Guarded by `lock`.
    private var ready: [UnownedJob] = []
    private var head = 0
    /// Sorted by deadline, latest first, so the earliest is `last`.
    private var timers: [Timer] = []
    private var threads = 0
    private var idle = 0
    private var jobsRun = 0
    private let lock = ConditionLock()
    private let width: Int

    /// A pool of at most `width` threads, started as work needs them.
    init(width: Int) {
        self.width = max(1, width)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let start = lock.withLock { () -> Bool in
            ready.append(job)
            if idle > 0 {
                lock.signal()
                return false
            }
            return reserveThread()
        }
        if start { startThread() }
    }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C) {
        enqueue(job, after: clock.now.duration(to: instant), tolerance: tolerance, clock: clock)
    }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C) {
        // The standard clocks (the only ones whose sleep comes here) measure in `Duration`.
        let nanoseconds = (delay as? Duration).map(Self.nanoseconds) ?? 0
        let deadline = monotonicNanoseconds() &+ nanoseconds
        let timer = Timer(deadline: deadline, job: UnownedJob(job))
        let start = lock.withLock { () -> Bool in
            let index = timers.partitioningIndex { $0.deadline <= deadline }
            timers.insert(timer, at: index)
            guard index == timers.count - 1 else { return false }
            // A new earliest timer: the waiting worker must wait for it instead.
            if idle > 0 {
                lock.broadcast()
                return false
            }
            return reserveThread()
        }
        if start { startThread() }
    }

    /// How many threads it started, and how many jobs they ran (for tests).
    var statistics: (threads: Int, jobs: Int) {
        lock.withLock { (threads, jobsRun) }
    }

    /// Counts a new thread if the pool may grow (the lock held).
    private func reserveThread() -> Bool {
        guard threads < width else { return false }
        threads += 1
        return true
    }

    private func startThread() {
        // A worker never returns, so it cannot run on the caller instead: without a new thread
        // the jobs wait for the pool's other threads.
        if !DetachedThread.start(name: "geotrack.worker", { [self] in work() }) {
            lock.withLock { threads -= 1 }
        }
    }

    private func work() {
        let executor = asUnownedTaskExecutor()
        lock.lock()
        while true {
            if let job = nextJob() {
                jobsRun += 1
                lock.unlock()
                job.runSynchronously(on: executor)
                lock.lock()
                continue
            }
            idle += 1
            if let earliest = timers.last {
                lock.wait(until: earliest.deadline)
            } else {
                lock.wait()
            }
            idle -= 1
        }
    }

    /// The next job to run: a due timer's first, then the oldest ready one (the lock held).
    private func nextJob() -> UnownedJob? {
        if let earliest = timers.last, earliest.deadline <= monotonicNanoseconds() {
            timers.removeLast()
            return earliest.job
        }
        guard head < ready.count else { return nil }
        let job = ready[head]
        head += 1
        if head == ready.count {
            ready.removeAll(keepingCapacity: true)
            head = 0
        }
        return job
    }

    private static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        // A sleep beyond ~584 years waits forever rather than wrapping around.
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return UInt64.max / 2 }
        return min(whole &+ UInt64(max(0, attoseconds) / 1_000_000_000), UInt64.max / 2)
    }
}

extension Array {
    /// The first index whose element satisfies `belongsInSecondPartition`, for an array
    /// partitioned by it (binary search).
    fileprivate func partitioningIndex(where belongsInSecondPartition: (Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if belongsInSecondPartition(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
#endif
