// Only with the custom executors (GeoTrackExecutors.swift says when).
#if compiler(>=6.3) && compiler(<6.4) && !GEOTRACK_DEFAULT_EXECUTORS
@_spi(ExperimentalCustomExecutors) import _Concurrency
#if canImport(Glibc)
import Glibc
#endif

/// The main actor's executor without Dispatch: the main thread runs jobs, and closures posted
/// with ``MainQueue/async(_:)``, one at a time in the order they came, and sleeps in
/// `pthread_cond_wait` when there are none, so it never wakes by itself.
final class MainLoop: MainExecutor, @unchecked Sendable {
    private enum Item {
        case job(UnownedJob)
        case closure(@Sendable () -> Void)
    }

    // Guarded by `lock`.
    private var items: [Item] = []
    private var stopped = false
    private let lock = ConditionLock()
    /// The thread that runs the loop: the one that created it (``GeoTrackExecutors/install()``
    /// runs on the main thread).
    private let thread = pthread_self()

    func enqueue(_ job: consuming ExecutorJob) {
        post(.job(UnownedJob(job)))
    }

    /// Runs `body` on the main thread, after what is already queued.
    func post(_ body: @escaping @Sendable () -> Void) {
        post(.closure(body))
    }

    private func post(_ item: Item) {
        lock.withLock {
            items.append(item)
            if items.count == 1 { lock.signal() }
        }
    }

    /// Runs queued work on the calling (main) thread until ``stop()``.
    func run() throws {
        var batch: [Item] = []
        while true {
            lock.lock()
            while items.isEmpty && !stopped { lock.wait() }
            if stopped {
                stopped = false
                lock.unlock()
                return
            }
            swap(&batch, &items)
            lock.unlock()
            for item in batch {
                switch item {
                case .job(let job): job.runSynchronously(on: asUnownedSerialExecutor())
                case .closure(let body): body()
                }
            }
            batch.removeAll(keepingCapacity: true)
        }
    }

    /// Makes ``run()`` return once the current batch is done.
    func stop() {
        lock.withLock {
            stopped = true
            lock.signal()
        }
    }

    var isMainExecutor: Bool { true }

    /// Code that assumes the main actor (`MainActor.assumeIsolated`) outside a job: it is
    /// isolated exactly when it runs on the thread that runs the loop.
    func checkIsolated() {
        guard isOnLoopThread else {
            fatalError("Incorrect actor executor assumption: expected the main thread")
        }
    }

    func isIsolatingCurrentContext() -> Bool? {
        isOnLoopThread
    }

    private var isOnLoopThread: Bool {
        pthread_equal(thread, pthread_self()) != 0
    }
}
#endif
