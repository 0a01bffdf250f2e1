import Foundation
import Testing

/// Paths and helpers shared by the CLI tests.
enum TestSupport {
    /// The package's root folder.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The built `geotrack` binary, beside the test bundle.
    static var binary: String {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [
            bundle.appendingPathComponent("geotrack").path,
            bundle.deletingLastPathComponent().appendingPathComponent("geotrack").path,
            packageRoot.appendingPathComponent(".build/debug/geotrack").path,
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[2]
    }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("geotrack-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The result of running a program.
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs a program to the end, with stdin from /dev/null unless `input` is given.
    ///
    /// posix_spawn and waitpid rather than Foundation's Process: the output goes to files (a daemon
    /// the child starts, like tmux's server, would hold a pipe open forever), and waitpid reaps the
    /// child even when the daemon it forked lives on.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                    input: String? = nil) throws -> Run {
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = nil
        for (key, value) in environment { env[key] = value }
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outPath = directory.appendingPathComponent("stdout").path
        let errPath = directory.appendingPathComponent("stderr").path
        let inPath = directory.appendingPathComponent("stdin").path
        try (input ?? "").write(toFile: inPath, atomically: true, encoding: .utf8)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input == nil ? "/dev/null" : inPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
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
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw SpawnError(executable: executable, code: spawned) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS, spelled out (the C macros are not imported).
        let exitCode: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Run(status: exitCode,
                   stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
                   stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
    }

    /// A program could not be started.
    struct SpawnError: Error {
        var executable: String
        var code: Int32
    }

    /// Runs `geotrack` with a private state and config home, so no test sees another's decision.
    static func geotrack(_ arguments: [String], home: URL, environment: [String: String] = [:], input: String? = nil) throws -> Run {
        var env = ["XDG_STATE_HOME": home.appendingPathComponent("state").path,
                   "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
                   "HOME": home.path]
        for (key, value) in environment { env[key] = value }
        return try run(binary, arguments, environment: env, input: input)
    }

    /// Whether a program is on this machine.
    static func installed(_ path: String) -> Bool {
        FileManager.default.isExecutableFile(atPath: path)
    }
}
