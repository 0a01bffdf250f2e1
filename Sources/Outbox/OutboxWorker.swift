import Executors
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One thread of the outbox's own that runs jobs one after another, so that the `async` calls
/// block it, not one of the few threads that run Swift tasks, while SQLite reads the disk or
/// waits (up to the busy timeout) for another process's lock.
///
/// The thread starts with the first job (a command that only reads a summary never starts one)
/// and ends after ``stop()``, once the jobs queued before it have run.
final class OutboxWorker: @unchecked Sendable {
    private struct State {
        var jobs: [@Sendable () -> Void] = []
        var started = false
        var stopped = false
    }

    private let name: String
    private let state = Mutex(State())
    private let running = Atomic<Bool>(false)
    // One post per job and one for the stop. A semaphore rather than a condition variable because
    // `Synchronization.Mutex` cannot be waited on. Only touched through sem_* calls, which
    // synchronise themselves (hence @unchecked); on the heap because a sem_t must not move.
    private let semaphore: UnsafeMutablePointer<sem_t>

    /// A worker whose thread will be called `name` (15 bytes are kept).
    init(name: String) {
        self.name = name
        semaphore = .allocate(capacity: 1)
        sem_init(semaphore, 0, 0)
    }

    // The thread holds the worker until it ends, so nothing waits on the semaphore any more.
    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    /// Whether the thread is running (started and not yet ended).
    var isRunning: Bool { running.load(ordering: .acquiring) }

    /// Queues `job`. Returns `false`, and drops it, after ``stop()`` or when no thread could be
    /// started (the process is out of threads).
    func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
        let accepted = state.withLock { state in
            guard !state.stopped else { return false }
            if !state.started {
                running.store(true, ordering: .releasing)
                // Started with the lock held, so that a second job cannot see `started` before
                // the thread exists, nor the thread start twice.
                guard DetachedThread.start(name: name, { [self] in run() }) else {
                    running.store(false, ordering: .releasing)
                    return false
                }
                state.started = true
            }
            state.jobs.append(job)
            return true
        }
        if accepted { sem_post(semaphore) }
        return accepted
    }

    /// Refuses new jobs and lets the thread end once the queued ones have run. Does not wait for
    /// it: this may be called from a job (the last reference to an outbox can go there).
    func stop() {
        let wake = state.withLock { state in
            guard !state.stopped else { return false }
            state.stopped = true
            return state.started
        }
        if wake { sem_post(semaphore) }
    }

    private func run() {
        while true {
            while sem_wait(semaphore) != 0 {
                guard errno == EINTR else { break }
            }
            // A post finds its job in the queue (jobs are queued before they are posted), so an
            // empty queue means the post was the stop's, and no job can come after it.
            let job = state.withLock { state in state.jobs.isEmpty ? nil : state.jobs.removeFirst() }
            guard let job else { break }
            job()
        }
        running.store(false, ordering: .releasing)
    }
}
