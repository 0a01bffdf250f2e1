import CSpawn
import Executors
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A failure of the test harness itself (a tool missing, a process that would not start or stop).
public struct HarnessError: Error, CustomStringConvertible {
    /// What went wrong, and what to do about it.
    public let description: String
    /// Creates an error with its message.
    public init(_ description: String) { self.description = description }
}

/// A real child process the tests start, watch and stop, for every suite: the programs under
/// test and the harness's servers.
///
/// Every child leads a process group of its own, so that stopping the group also stops whatever
/// it started (gpsfake's gpsd, tmux's server); it starts with no signal blocked and every signal
/// at its default, with no descriptor of the test process but its standard input, output and
/// error, and without the harness's own `GEOTRACK_TEST_` settings. A program under test
/// (``init(_:_:environment:input:standardOutput:)``) also gets a session of its own, with no
/// controlling terminal, as under CI, and its output captured in files; a harness server
/// (``init(path:arguments:stdoutPath:stderrPath:environment:)``) stays in the test's session:
/// gpsfake's pseudo-terminal misbehaved in a session of its own (its gpsd never reported a fix
/// to an in-process client).
///
/// posix_spawn rather than Foundation's Process: output goes to files (a daemon the child starts,
/// like tmux's server, would hold a pipe open forever), and waitpid reaps the child even when
/// that daemon lives on. The `async` waits run on a thread of their own and never hold the
/// caller's actor or a thread of the cooperative pool.
public final class ChildProcess: Sendable {
    /// The child's process id, which is also its process group id.
    public let pid: pid_t
    /// The folder of a program under test: its `stdout` and `stderr` files (``stdout``,
    /// ``stderr``). Removed with this object; nil for a harness server.
    public let directory: URL?
    /// waitpid's status once the child has been reaped.
    private let reaped = Mutex<Int32?>(nil)

    /// Starts a harness server, `path` with `arguments`, leading a process group in the test's
    /// session: stdout goes to `stdoutPath` (or /dev/null), stderr to `stderrPath` (or
    /// /dev/null), both created or emptied; stdin is /dev/null, or the descriptor `standardInput`
    /// (the caller keeps and closes its own). `environment` adds to (or replaces in) the test's own.
    public init(path: String, arguments: [String], stdoutPath: String? = nil, stderrPath: String? = nil,
                environment: [String: String] = [:], standardInput: Int32? = nil) throws {
        directory = nil
        pid = try Self.spawn(path, arguments, environment: environment, ownSession: false,
                             stdin: standardInput.map { .descriptor($0) } ?? .file("/dev/null"),
                             stdout: stdoutPath.map { .created($0) } ?? .existing("/dev/null"),
                             stderr: stderrPath.map { .created($0) } ?? .existing("/dev/null"))
    }

    /// Starts a program under test, `executable` with `arguments`, in a session of its own, with
    /// its stdout and stderr captured in files of its own (``stdout``, ``stderr``), or its stdout
    /// to the existing file `standardOutput` names (/dev/full, to see a write fail); stdin is
    /// `input` when given, else /dev/null. `environment` adds to (or replaces in) the test's own,
    /// without its `NO_COLOR`: colours are each test's own choice.
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:], input: String? = nil,
                standardOutput: String? = nil) throws {
        var template = Array((NSTemporaryDirectory() + "/geotrack-child-XXXXXX").utf8CString)
        guard mkdtemp(&template) != nil else {
            throw HarnessError("cannot make a folder for \(executable)'s output: \(String(cString: strerror(errno)))")
        }
        let folder = URL(fileURLWithPath: String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        directory = folder
        let inPath = folder.appendingPathComponent("stdin").path
        if let input { try input.write(toFile: inPath, atomically: true, encoding: .utf8) }
        var environment = environment
        if environment["NO_COLOR"] == nil { environment["NO_COLOR"] = Self.unset }
        do {
            pid = try Self.spawn(executable, arguments, environment: environment, ownSession: true,
                                 stdin: .file(input == nil ? "/dev/null" : inPath),
                                 stdout: standardOutput.map { .existing($0) } ?? .created(folder.appendingPathComponent("stdout").path),
                                 stderr: .created(folder.appendingPathComponent("stderr").path))
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    deinit {
        if reaped.withLock({ $0 }) == nil {
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
            var status: Int32 = 0
            // SIGKILL ends it at once: this reaps a zombie, it does not wait for work.
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    /// What the child wrote to its captured stdout, so far.
    public var stdout: String { captured("stdout") }
    /// What the child wrote to its captured stderr, so far.
    public var stderr: String { captured("stderr") }

    private func captured(_ name: String) -> String {
        guard let directory else { return "" }
        return (try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)) ?? ""
    }

    /// Whether the process has exited (reaping it if so).
    public var hasExited: Bool { reap(blocking: false) != nil }

    /// The exit status once reaped: the code, or 128 + N for signal N.
    public var exitStatus: Int32? { reaped.withLock { $0 }.map(Self.exitStatus) }

    /// The exit code, once the process exited normally.
    public var exitCode: Int32? {
        guard let status = reaped.withLock({ $0 }), status & 0x7F == 0 else { return nil }
        return (status >> 8) & 0xFF
    }

    /// Sends `signal` to the whole process group.
    public func signalGroup(_ signal: Int32) {
        kill(-pid, signal)
    }

    /// Sends a signal to the process (or its whole group).
    public func signal(_ number: Int32, group: Bool = false) {
        kill(group ? -pid : pid, number)
    }

    /// Waits, however long it takes, blocking the calling thread, for the process to end; returns
    /// its exit status (128+N for signal N). For synchronous tests; `async` code uses ``waitForExit()``.
    @discardableResult
    public func waitUntilExit() -> Int32 {
        reap(blocking: true).map(Self.exitStatus) ?? 0
    }

    /// Waits for a short-lived tool to exit, blocking the calling thread; true when it did.
    public func waitForExitBlocking() -> Bool {
        waitUntilExit()
        return true
    }

    /// Waits up to `timeout` seconds, blocking the calling thread, for the process to end; its
    /// exit status (128+N for signal N), or nil. For synchronous tests; `async` code uses
    /// ``waitForExit(timeout:)``.
    public func wait(timeout: Double) -> Int32? {
        let deadline = ContinuousClock.now.advanced(by: .seconds(timeout))
        repeat {
            if let status = reap(blocking: false) { return Self.exitStatus(status) }
            usleep(10_000)
        } while ContinuousClock.now < deadline
        return reap(blocking: false).map(Self.exitStatus)
    }

    /// Waits, however long it takes, for the process to end, on a thread of its own; returns its
    /// exit status (128+N for signal N).
    @discardableResult
    public func waitForExit() async -> Int32 {
        await DetachedThread.value(name: "child wait") { [self] in waitUntilExit() }
    }

    /// Waits for the process to exit, up to `timeout`, on a thread of its own; true when it did.
    public func waitForExit(timeout: Duration) async -> Bool {
        await DetachedThread.value(name: "child wait") { [self] in wait(timeout: Double(timeout.components.seconds)
                                                        + Double(timeout.components.attoseconds) / 1e18) != nil }
    }

    /// Waits up to `timeout` seconds for the process to end, on a thread of its own; its exit
    /// status (128+N for signal N), or nil if it is still running.
    public func status(within timeout: Double) async -> Int32? {
        await DetachedThread.value(name: "child wait") { [self] in wait(timeout: timeout) }
    }

    /// waitpid's status once the child is reaped (waiting for it when `blocking`), else nil.
    private func reap(blocking: Bool) -> Int32? {
        if let status = reaped.withLock({ $0 }) { return status }
        var status: Int32 = 0
        var result: pid_t
        repeat { result = waitpid(pid, &status, blocking ? 0 : WNOHANG) } while result < 0 && errno == EINTR
        return reaped.withLock { known in
            // Two waiters may race: the one whose waitpid reaped it records the status; the other
            // (ECHILD) finds it recorded.
            if result == pid, known == nil { known = status }
            return known
        }
    }

    /// WIFEXITED / WEXITSTATUS, spelled out (the C macros are not imported).
    private static func exitStatus(_ status: Int32) -> Int32 {
        (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// In `environment`, a variable to leave out of the child's.
    private static let unset = "\u{0}unset"

    /// Where the child's stdin comes from.
    private enum Input {
        case file(String)
        case descriptor(Int32)
    }

    /// Where one of the child's outputs goes: a file created and emptied, or one that exists.
    private enum Output {
        case created(String)
        case existing(String)
    }

    private static func spawn(_ path: String, _ arguments: [String], environment extra: [String: String], ownSession: Bool,
                              stdin: Input, stdout: Output, stderr: Output) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        switch stdin {
        case .file(let file): posix_spawn_file_actions_addopen(&actions, 0, file, O_RDONLY, 0)
        case .descriptor(let descriptor): posix_spawn_file_actions_adddup2(&actions, descriptor, 0)
        }
        for (descriptor, output) in [(Int32(1), stdout), (Int32(2), stderr)] {
            switch output {
            case .created(let file): posix_spawn_file_actions_addopen(&actions, descriptor, file, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            case .existing(let file): posix_spawn_file_actions_addopen(&actions, descriptor, file, O_WRONLY, 0)
            }
        }
        // Nothing else of the test process reaches the child. Its descriptors are not all
        // close-on-exec (swift-nio accepts connections without SOCK_CLOEXEC): a long-lived child
        // (gpsfake, a geotrack under test) that inherited another test's accepted socket kept
        // that connection open after its server closed it, and the client waited in vain.
        let closing = geotrack_spawn_close_from(&actions, 3)
        guard closing == 0 else { throw HarnessError("cannot start \(path): \(String(cString: strerror(closing)))") }
        // The calling thread (a Swift concurrency worker) blocks every signal, and a child inherits
        // that mask: tmux's server would never see SIGCHLD, gpsfake never SIGTERM. Nothing blocked,
        // every signal at its default.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t(), all = sigset_t()
        sigemptyset(&empty)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        // A program under test gets a session of its own (so a process group of its own): no
        // controlling terminal, as under CI, even when the tests run in one (geotrack would
        // otherwise ask on the developer's /dev/tty and wait for an answer). A harness server
        // leads a process group in the test's session.
        if ownSession {
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | 0x80)) // 0x80: POSIX_SPAWN_SETSID
        } else {
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        let environment = childEnvironment(ProcessInfo.processInfo.environment, adding: extra)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let result = posix_spawn(&child, path, &actions, &attributes, argv, envp)
        guard result == 0 else { throw HarnessError("cannot start \(path): \(String(cString: strerror(result)))") }
        return child
    }

    /// The environment a child starts with: the test's own `base`, without the harness's own
    /// settings, with `extra` added (a value of ``unset`` removes the variable).
    ///
    /// The harness's settings (`GEOTRACK_TEST_GPSD_PREFIX`, `GEOTRACK_TEST_RECORDER`) are not
    /// geotrack's: it warns about every `GEOTRACK_` variable it does not know, and in a tmux pane
    /// that warning took the status line's place. A user's geotrack never sees them.
    static func childEnvironment(_ base: [String: String], adding extra: [String: String]) -> [String: String] {
        var environment = base.filter { !$0.key.hasPrefix("GEOTRACK_TEST_") }
        for (key, value) in extra { environment[key] = value == unset ? nil : value }
        return environment
    }
}

/// Checks `condition` every 20 ms until it holds or `timeout` passes.
///
/// Only for waiting on real external processes, which give no other signal.
public func waitUntil(timeout: Duration, _ condition: () -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while clock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return condition()
}
