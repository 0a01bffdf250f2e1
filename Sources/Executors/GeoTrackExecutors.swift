// Swift's custom main and global executors are SPI (`ExperimentalCustomExecutors`): an
// underscored interface that may change or go in any compiler release. They are used only with
// the compiler they were written and tested against, and only unless the build defines
// GEOTRACK_DEFAULT_EXECUTORS (`make test` builds and runs a subset that way: make
// test-default-executors). Everywhere else the program runs on Swift's default executors,
// Dispatch's, which behave the same except that an idle process wakes about once a second.
#if compiler(>=6.3) && compiler(<6.4) && !GEOTRACK_DEFAULT_EXECUTORS
@_spi(ExperimentalCustomExecutors) import _Concurrency
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The process's executors when it is a `geotrack` command: a main loop and a small worker
/// pool instead of Dispatch, so that a tracker waiting for gpsd wakes no thread at all.
///
/// Dispatch's worker pool on Linux arms a one-second timer the first time any task runs, and
/// it never disarms it. A library cannot choose the executors; the program does, in its entry
/// point, with ``install()`` before the first task and ``runMainLoop()`` after it. Everything
/// else (tests, other programs) keeps Swift's default executors, and the code that posts to
/// the main thread (``MainQueue``) works with either.
public enum GeoTrackExecutors {
    private static let installed = Atomic<Bool>(false)

    /// Whether this build has the custom executors (otherwise ``install()`` does nothing and
    /// ``runMainLoop()`` runs Dispatch's main queue).
    public static let areAvailable = true

    /// Makes these executors Swift's main and global executors.
    ///
    /// Call it first thing on the main thread, before any task exists: a task created earlier
    /// would keep resuming on Dispatch, whose main queue nothing drains any more.
    public static func install() {
        guard !installed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        _createExecutors(factory: Factory.self)
    }

    /// Whether ``install()`` has run.
    public static var isInstalled: Bool {
        installed.load(ordering: .acquiring)
    }

    /// Runs the main actor's jobs on the calling (main) thread; does not return. The program
    /// ends with `exit`, like an `@main` async entry point does when its task returns.
    public static func runMainLoop() -> Never {
        while true {
            try? Factory.loop.run()
        }
    }

    /// The main loop, once installed.
    static var mainLoop: MainLoop? {
        isInstalled ? Factory.loop : nil
    }

    private enum Factory: ExecutorFactory {
        static let loop = MainLoop()
        // The processors online, from sysconf: ProcessInfo.activeProcessorCount also reads the
        // cgroup's CPU quota through four files, a tenth of `geotrack --version`'s time. Threads
        // start only as work needs them, so a larger count than the quota allows costs nothing idle.
        static let pool = WorkerPool(width: max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        static var mainExecutor: any MainExecutor { loop }
        static var defaultExecutor: any TaskExecutor { pool }
    }
}
#else
import Dispatch

/// The process's executors: in this build Swift's default ones (Dispatch), either because the
/// compiler is not the one the custom executors' SPI was written for or because the build
/// defines GEOTRACK_DEFAULT_EXECUTORS. The entry point calls the same two functions.
public enum GeoTrackExecutors {
    /// Whether this build has the custom executors: not this one.
    public static let areAvailable = false

    /// Does nothing: the default executors are already Swift's.
    public static func install() {}

    /// Whether ``install()`` made other executors Swift's: never in this build.
    public static var isInstalled: Bool { false }

    /// Runs Dispatch's main queue, the main actor's executor, on the calling (main) thread;
    /// does not return.
    public static func runMainLoop() -> Never {
        dispatchMain()
    }
}
#endif
