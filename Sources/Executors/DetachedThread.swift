import CExecutors
#if canImport(Glibc)
import Glibc
#endif

/// Starts an operating-system thread of its own for work that blocks (a `poll(2)`, a `read(2)`,
/// a database call), so it never holds one of the few threads that run Swift tasks.
///
/// Foundation's `Thread` does the same, but linking Foundation runs its initialisers in every
/// process start; this is one `pthread_create`.
public enum DetachedThread {
    /// Runs `body` on a new detached thread named `name` (the kernel keeps 15 bytes of it, as
    /// `ps -L` and `top -H` show). Returns `false`, and does not run `body`, when the system
    /// could not start a thread (`EAGAIN`: the process or user is out of threads).
    @discardableResult
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) -> Bool {
        let box = Unmanaged.passRetained(Box(name: name, body: body))
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, { argument in
            guard let argument else { return nil }
            let box = Unmanaged<Box>.fromOpaque(argument).takeRetainedValue()
            // The name is set by the thread itself: it is then in place before any of its work.
            var name = [CChar](repeating: 0, count: 16)
            for (index, byte) in box.name.utf8.prefix(15).enumerated() { name[index] = CChar(bitPattern: byte) }
            _ = geotrack_thread_set_name(name)
            box.body()
            return nil
        }, box.toOpaque())
        if result != 0 {
            box.release()
            return false
        }
        return true
    }

    /// Runs `body` on a new thread named `name`, or on the calling thread when none can be started
    /// (the process is out of threads): late, and blocking its caller, rather than never.
    public static func startOrRun(name: String, _ body: @escaping @Sendable () -> Void) {
        if !start(name: name, body) { body() }
    }

    /// The result of `body`, run as ``startOrRun(name:_:)`` runs it: a caller on the cooperative
    /// pool awaits blocking work (reading files) without holding one of its threads.
    public static func value<Result: Sendable>(name: String, _ body: @escaping @Sendable () -> Result) async -> Result {
        await withCheckedContinuation { continuation in
            startOrRun(name: name) { continuation.resume(returning: body()) }
        }
    }

    private final class Box {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }
}
