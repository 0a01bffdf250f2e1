import Foundation
import GeoTrackTesting

/// A child process the test starts, watches and stops: output to files, its own process group,
/// no blocked signals. ``TestSupport/run(_:_:environment:input:)`` runs one to the end.
final class ChildProcess {
    let pid: pid_t
    let directory: URL
    private(set) var exitStatus: Int32?

    /// Starts `executable`, with stdin from /dev/null unless `input` is given; with `newGroup`
    /// it leads a process group of its own (so `stop` reaches its children). Its stdout is a file
    /// of its own, or the existing file `standardOutput` names (/dev/full, to see a write fail).
    ///
    /// posix_spawn rather than Foundation's Process: the output goes to files (a daemon the child
    /// starts, like tmux's server, would hold a pipe open forever), and waitpid reaps the child
    /// even when the daemon it forked lives on.
    init(_ executable: String, _ arguments: [String], environment: [String: String] = [:], input: String? = nil,
         newGroup: Bool = false, standardOutput: String? = nil) throws {
        directory = try TestSupport.temporaryDirectory()
        // The harness's own settings (GEOTRACK_TEST_GPSD_PREFIX, GEOTRACK_TEST_RECORDER) are not
        // geotrack's: geotrack warns about every GEOTRACK_ variable it does not know, and in a
        // tmux pane that warning took the status line's place. A user's geotrack never sees them.
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("GEOTRACK_TEST_") }
        env["NO_COLOR"] = nil
        for (key, value) in environment { env[key] = value }
        let inPath = directory.appendingPathComponent("stdin").path
        if let input { try input.write(toFile: inPath, atomically: true, encoding: .utf8) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input == nil ? "/dev/null" : inPath, O_RDONLY, 0)
        if let standardOutput {
            posix_spawn_file_actions_addopen(&actions, 1, standardOutput, O_WRONLY, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, directory.appendingPathComponent("stdout").path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }
        posix_spawn_file_actions_addopen(&actions, 2, directory.appendingPathComponent("stderr").path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        // The calling thread (a Swift concurrency worker) blocks every signal, and a child inherits
        // that mask: tmux's server would never see SIGCHLD. Start children with nothing blocked
        // and every signal at its default.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t(), all = sigset_t()
        sigemptyset(&empty)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        // A session of its own (and so a process group of its own, for `newGroup`): the child
        // has no controlling terminal, as under CI, even when the tests run in one. geotrack
        // would otherwise ask on the developer's /dev/tty and wait for an answer.
        let flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | 0x80 // POSIX_SPAWN_SETSID
        _ = newGroup
        posix_spawnattr_setflags(&attributes, Int16(flags))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard result == 0 else { throw TestSupport.SpawnError(executable: executable, code: result) }
        self.pid = pid
    }

    deinit {
        if exitStatus == nil {
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        try? FileManager.default.removeItem(at: directory)
    }

    var stdout: String { (try? String(contentsOf: directory.appendingPathComponent("stdout"), encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOf: directory.appendingPathComponent("stderr"), encoding: .utf8)) ?? "" }

    /// Waits up to `timeout` seconds for the process to end; returns its exit status (128+N for signal N), or nil.
    func wait(timeout: Double) -> Int32? {
        if let exitStatus { return exitStatus }
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                exitStatus = Self.exitStatus(status)
                return exitStatus
            }
            usleep(10_000)
        } while Date() < deadline
        return nil
    }

    /// Waits, however long it takes, for the process to end; returns its exit status (128+N for signal N).
    func waitUntilExit() -> Int32 {
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let code = Self.exitStatus(status)
        exitStatus = code
        return code
    }

    /// WIFEXITED / WEXITSTATUS, spelled out (the C macros are not imported).
    private static func exitStatus(_ status: Int32) -> Int32 {
        (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// Sends a signal to the process (or its whole group).
    func signal(_ number: Int32, group: Bool = false) {
        kill(group ? -pid : pid, number)
    }
}

/// gpsfake feeding a real gpsd a recorded log on a free loopback port, over and over.
final class GPSFake {
    let port: Int
    let process: ChildProcess

    /// Starts gpsfake with one sentence every `delay` seconds; returns once gpsd accepts
    /// connections and lists the receiver. A free port may be taken by a test running beside
    /// this one before gpsd binds it; when gpsfake then exits, or gpsd never lists the receiver,
    /// another port is tried (three in all).
    /// gpsd, gpsfake and gpspipe are `installation`'s: the tests' gpsd unless a test names another.
    init(log: String, delay: Double = 0.1, once: Bool = false, installation: GPSDInstallation = .current) throws {
        var attempt = 1
        while true {
            let port = try GeoTrackTesting.GPSFake.freePort()
            if let problem = installation.problem { throw HarnessError(problem) }
            let command = installation.command("gpsfake", (once ? ["-1"] : []) + ["-q", "-P", "\(port)", "-c", "\(delay)", log])
            let process = try ChildProcess(command.executable, command.arguments, newGroup: true)
            if try Self.serves(port: port, process: process) {
                self.port = port
                self.process = process
                return
            }
            guard attempt < 3 else { throw TestSupport.SpawnError(executable: "gpsfake (no receiver listed on three ports)", code: -1) }
            attempt += 1
        }
    }

    /// Whether gpsd came up on `port` and lists gpsfake's receiver; false when gpsfake exited or
    /// the receiver was not listed within 15 s (gpsfake is then killed).
    private static func serves(port: Int, process: ChildProcess) throws -> Bool {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, !GeoTrackTesting.GPSFake.accepts(port: port) {
            if process.wait(timeout: 0) != nil { return false }
            usleep(50_000)
        }
        guard GeoTrackTesting.GPSFake.accepts(port: port) else {
            process.signal(SIGKILL, group: true)
            throw TestSupport.SpawnError(executable: "gpsfake (gpsd never listened)", code: -1)
        }
        // gpsd listens before gpsfake has added its receiver, and a client that watches in
        // between may hear nothing from gpsd 3.22 for half a minute: wait until gpsd lists it.
        // GeoTrackTesting's probe asks with ?DEVICES, which (unlike a watch, which `geotrack
        // devices` sends) does not make gpsd open the receiver while gpsfake is adding it.
        // gpsfake adds it well within a second; CI once saw a gpsd that never listed it: then
        // another port is tried.
        let listed = Date().addingTimeInterval(15)
        while Date() < listed {
            if GeoTrackTesting.GPSFake.listsDevice(port: port) { return true }
            if process.wait(timeout: 0) != nil { return false }
            usleep(50_000)
        }
        process.signal(SIGKILL, group: true)
        _ = process.wait(timeout: 5)
        return false
    }

    deinit {
        process.signal(SIGTERM, group: true)
        if process.wait(timeout: 3) == nil {
            process.signal(SIGKILL, group: true)
            _ = process.wait(timeout: 3)
        }
    }

    var address: String { "127.0.0.1:\(port)" }
}
