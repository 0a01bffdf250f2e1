import Foundation
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

/// A real child process in its own process group, so stopping it also stops
/// whatever it started (gpsfake's gpsd).
public final class ChildProcess {
    /// The child's process id, which is also its process group id.
    public let pid: pid_t
    private var exitStatus: Int32?

    /// Starts `path` with `arguments`; stdout goes to `stdoutPath` (or /dev/null), stderr to
    /// `stderrPath` (or /dev/null). `environment` adds to (or replaces in) the test's own.
    public init(path: String, arguments: [String], stdoutPath: String? = nil, stderrPath: String? = nil,
                environment extra: [String: String] = [:]) throws {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The test runner's threads may block or ignore signals; the child must not inherit that,
        // or SIGTERM would never reach gpsfake.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawnattr_setpgroup(&attributes, 0)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if let stderrPath {
            posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }

        let argv = ([path] + arguments).map { strdup($0) }
        let merged = ProcessInfo.processInfo.environment.merging(extra) { _, added in added }
        let environment = merged.map { strdup("\($0.key)=\($0.value)") }
        defer {
            argv.forEach { free($0) }
            environment.forEach { free($0) }
        }
        var child: pid_t = 0
        let status = posix_spawn(&child, path, &actions, &attributes, argv + [nil], environment + [nil])
        guard status == 0 else {
            throw HarnessError("cannot start \(path): \(String(cString: strerror(status)))")
        }
        pid = child
    }

    deinit {
        if exitStatus == nil {
            kill(-pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
    }

    /// Whether the process has exited (reaping it if so).
    public var hasExited: Bool {
        if exitStatus != nil { return true }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid {
            exitStatus = status
            return true
        }
        return false
    }

    /// Sends `signal` to the whole process group.
    public func signalGroup(_ signal: Int32) {
        kill(-pid, signal)
    }

    /// The exit code, once the process exited normally.
    public var exitCode: Int32? {
        guard let exitStatus, exitStatus & 0x7F == 0 else { return nil }
        return (exitStatus >> 8) & 0xFF
    }

    /// Waits for a short-lived tool to exit, blocking the calling thread; true when it did.
    public func waitForExitBlocking() -> Bool {
        if exitStatus != nil { return true }
        var status: Int32 = 0
        guard waitpid(pid, &status, 0) == pid else { return false }
        exitStatus = status
        return true
    }

    /// Waits for the process to exit, up to `timeout`; true when it did.
    public func waitForExit(timeout: Duration) async -> Bool {
        await waitUntil(timeout: timeout) { self.hasExited }
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
