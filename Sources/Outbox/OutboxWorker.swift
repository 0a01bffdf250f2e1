import Executors

/// One thread of the outbox's own that runs jobs one after another, so that the `async` calls
/// block it, not one of the few threads that run Swift tasks, while SQLite reads the disk or
/// waits (up to the busy timeout) for another process's lock.
///
/// The thread starts with the first job (a command that only reads a summary never starts one)
/// and ends after ``stop()``, once the jobs queued before it have run.
final class OutboxWorker: @unchecked Sendable {
    // Guarded by `lock` (hence @unchecked).
    private var jobs: [@Sendable () -> Void] = []
    private var started = false
    private var stopped = false
    private var running = false
    private let lock = ConditionLock()
    private let name: String

    /// A worker whose thread will be called `name` (15 bytes are kept).
    init(name: String) {
        self.name = name
    }

    /// Whether the thread is running (started and not yet ended).
    var isRunning: Bool { lock.withLock { running } }

    /// Queues `job`. Returns `false`, and drops it, after ``stop()`` or when no thread could be
    /// started (the process is out of threads).
    func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
        lock.withLock {
            guard !stopped else { return false }
            if !started {
                // Started with the lock held, so that a second job cannot see `started` before
                // the thread exists, nor the thread start twice.
                running = true
                guard DetachedThread.start(name: name, { [self] in run() }) else {
                    running = false
                    return false
                }
                started = true
            }
            jobs.append(job)
            lock.signal()
            return true
        }
    }

    /// Refuses new jobs and lets the thread end once the queued ones have run. Does not wait for
    /// it: this may be called from a job (the last reference to an outbox can go there).
    func stop() {
        lock.withLock {
            stopped = true
            lock.signal()
        }
    }

    private func run() {
        lock.lock()
        while true {
            if !jobs.isEmpty {
                var job: (@Sendable () -> Void)? = jobs.removeFirst()
                lock.unlock()
                job?()
                // A job may hold the last reference to its outbox, whose deinit stops this
                // worker and so takes the lock: let it go before the lock is taken again.
                job = nil
                lock.lock()
                continue
            }
            if stopped { break }
            lock.wait()
        }
        running = false
        lock.unlock()
    }
}
