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

/// A real child process the tests start, watch and stop: the leader of a process group of its
/// own, so that stopping it also stops whatever it started (gpsfake's gpsd, tmux's server), with
/// no blocked signals and the harness's own `GEOTRACK_TEST_` settings left out of its
/// environment. A program under test also gets a session of its own, with no controlling
/// terminal, as under CI.
///
/// posix_spawn rather than Foundation's Process: output goes to files (a daemon the child starts
/// would hold a pipe open forever), and waitpid reaps the child even when that daemon lives on.
public final class ChildProcess {
    /// The child's process id, which is also its process group id.
    public let pid: pid_t
    /// The folder of a child started with its output captured (``init(_:_:environment:input:newGroup:standardOutput:)``):
    /// its `stdout` and `stderr` files. Removed with the process object.
    public let directory: URL?
    /// waitpid's status once the child has been reaped.
    private var status: Int32?

    /// Starts `path` with `arguments`; stdout goes to `stdoutPath` (or /dev/null), stderr to
    /// `stderrPath` (or /dev/null), both created or emptied. `environment` adds to (or replaces
    /// in) the test's own.
    public init(path: String, arguments: [String], stdoutPath: String? = nil, stderrPath: String? = nil,
                environment extra: [String: String] = [:]) throws {
        directory = nil
        pid = try Self.spawn(path, arguments, environment: extra, ownSession: false, stdin: "/dev/null",
                             stdout: stdoutPath.map { ($0, true) } ?? ("/dev/null", false),
                             stderr: stderrPath.map { ($0, true) } ?? ("/dev/null", false))
    }

    /// Starts `executable` with its stdout and stderr captured in files of its own (``stdout``,
    /// ``stderr``), or stdout to the existing file `standardOutput` names (/dev/full, to see a
    /// write fail); stdin is `input` when given, else /dev/null. `newGroup` is kept for the
    /// callers that say so: every child leads a process group of its own.
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:], input: String? = nil,
                newGroup: Bool = false, standardOutput: String? = nil) throws {
        _ = newGroup
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("geotrack-child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        directory = folder
        let inPath = folder.appendingPathComponent("stdin").path
        if let input { try input.write(toFile: inPath, atomically: true, encoding: .utf8) }
        pid = try Self.spawn(executable, arguments, environment: environment, ownSession: true,
                             stdin: input == nil ? "/dev/null" : inPath,
                             stdout: standardOutput.map { ($0, false) } ?? (folder.appendingPathComponent("stdout").path, true),
                             stderr: (folder.appendingPathComponent("stderr").path, true))
    }

    /// Spawns the child; `create` opens an output file created and emptied, else an existing one.
    private static func spawn(_ path: String, _ arguments: [String], environment extra: [String: String], ownSession: Bool,
                              stdin: String,
                              stdout: (path: String, create: Bool), stderr: (path: String, create: Bool)) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        for (descriptor, output) in [(Int32(1), stdout), (Int32(2), stderr)] {
            posix_spawn_file_actions_addopen(&actions, descriptor, output.path,
                                             output.create ? O_WRONLY | O_CREAT | O_TRUNC : O_WRONLY, 0o644)
        }
        // The calling thread (a Swift concurrency worker) blocks every signal, and a child inherits
        // that mask: tmux's server would never see SIGCHLD, gpsfake never SIGTERM. Nothing blocked.
        // The programs under test (`ownSession`) get a session of their own: no controlling
        // terminal (geotrack would otherwise ask on the developer's /dev/tty), every signal at its
        // default. The harness's servers (gpsfake, mosquitto, the Recorder) get a process group of
        // their own in the test's session: gpsfake's pseudo-terminal misbehaves in a session of
        // its own (its gpsd never reported a fix to an in-process client).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t(), defaults = sigset_t()
        sigemptyset(&empty)
        if ownSession {
            sigfillset(&defaults)
        } else {
            sigemptyset(&defaults)
            for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        if ownSession {
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | 0x80)) // 0x80: POSIX_SPAWN_SETSID
        } else {
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        // The harness's own settings (GEOTRACK_TEST_GPSD_PREFIX, GEOTRACK_TEST_RECORDER) are not
        // geotrack's: it warns about every GEOTRACK_ variable it does not know, and in a tmux
        // pane that warning took the status line's place. Colours are each test's own choice.
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("GEOTRACK_TEST_") }
        environment["NO_COLOR"] = nil
        environment.merge(extra) { _, added in added }
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

    deinit {
        if status == nil {
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
            var reaped: Int32 = 0
            waitpid(pid, &reaped, 0)
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
    public var hasExited: Bool {
        if status != nil { return true }
        var reaped: Int32 = 0
        if waitpid(pid, &reaped, WNOHANG) == pid {
            status = reaped
            return true
        }
        return false
    }

    /// The exit code, once the process exited normally.
    public var exitCode: Int32? {
        guard let status, status & 0x7F == 0 else { return nil }
        return (status >> 8) & 0xFF
    }

    /// The exit status once reaped: the code, or 128 + N for signal N.
    public var exitStatus: Int32? {
        status.map { ($0 & 0x7F) == 0 ? ($0 >> 8) & 0xFF : 128 + ($0 & 0x7F) }
    }

    /// Sends `signal` to the whole process group.
    public func signalGroup(_ signal: Int32) {
        kill(-pid, signal)
    }

    /// Sends a signal to the process (or its whole group).
    public func signal(_ number: Int32, group: Bool = false) {
        kill(group ? -pid : pid, number)
    }

    /// Waits for a short-lived tool to exit, blocking the calling thread; true when it did.
    public func waitForExitBlocking() -> Bool {
        waitUntilExit()
        return true
    }

    /// Waits, however long it takes, for the process to end; returns its exit status (128+N for signal N).
    @discardableResult
    public func waitUntilExit() -> Int32 {
        if let exitStatus { return exitStatus }
        var reaped: Int32 = 0
        while waitpid(pid, &reaped, 0) < 0 && errno == EINTR {}
        status = reaped
        return exitStatus ?? 0
    }

    /// Waits up to `timeout` seconds for the process to end, blocking; its exit status, or nil.
    public func wait(timeout: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if hasExited { return exitStatus }
            usleep(10_000)
        } while Date() < deadline
        return hasExited ? exitStatus : nil
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
