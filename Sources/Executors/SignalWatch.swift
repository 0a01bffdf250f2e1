import CExecutors
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Delivers signals without Dispatch: a handler writes each caught signal's number to a pipe,
/// and one thread, blocked on that pipe, calls the watches for that signal.
///
/// The thread sleeps in `read(2)` between signals, so watching wakes nothing while no signal
/// comes. Handlers run on that thread, one at a time; a handler for the main actor posts to
/// ``MainQueue``. Signals with a handler are caught with SA_RESTART, so blocking calls on other
/// threads are not interrupted.
public final class SignalWatch: Sendable {
    private let signals: [Int32]
    private let cancelled = Atomic<Bool>(false)

    /// Calls `handler` with each of `signals` as it arrives, until ``cancel()``.
    public init(_ signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) {
        self.signals = signals
        SignalHub.shared.add(self, signals: signals, handler: handler)
    }

    /// Stops the calls. Signals that nothing watches any more are ignored (SIG_IGN), so a late
    /// Ctrl-C cannot kill the process during its shutdown.
    public func cancel() {
        guard !cancelled.exchange(true, ordering: .relaxed) else { return }
        SignalHub.shared.remove(self, signals: signals)
    }

    deinit {
        cancel()
    }
}

/// The pipe, its reading thread, and who watches which signal.
private final class SignalHub: Sendable {
    static let shared = SignalHub()

    private struct Watcher {
        let id: ObjectIdentifier
        let handler: @Sendable (Int32) -> Void
    }

    private let watchers = Mutex<[Int32: [Watcher]]>([:])
    private let readEnd: Int32

    private init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            // Non-blocking for the handler, which must never block; the reader blocks.
            _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
            geotrack_signal_set_pipe(ends[1])
        }
        readEnd = ends[0]
        guard readEnd >= 0 else { return }
        DetachedThread.startOrRun(name: "geotrack.signals") { [readEnd] in SignalHub.read(readEnd) }
    }

    func add(_ watch: SignalWatch, signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) {
        // Without the pipe nobody would hear a caught signal: Ctrl-C would do nothing. The
        // signals keep their default action instead.
        guard readEnd >= 0 else { return }
        let watcher = Watcher(id: ObjectIdentifier(watch), handler: handler)
        watchers.withLock { table in
            for number in signals {
                table[number, default: []].append(watcher)
                _ = geotrack_signal_catch(number)
            }
        }
    }

    func remove(_ watch: SignalWatch, signals: [Int32]) {
        let id = ObjectIdentifier(watch)
        watchers.withLock { table in
            for number in signals {
                table[number]?.removeAll { $0.id == id }
                if table[number]?.isEmpty ?? true {
                    table[number] = nil
                    _ = geotrack_signal_ignore(number)
                }
            }
        }
    }

    private static func read(_ fd: Int32) {
        var bytes = [UInt8](repeating: 0, count: 64)
        while true {
            let count = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            for byte in bytes.prefix(count) {
                let number = Int32(byte)
                // Called outside the lock: a handler may add or cancel watches.
                let handlers = shared.watchers.withLock { $0[number]?.map(\.handler) ?? [] }
                for handler in handlers { handler(number) }
            }
        }
    }
}
