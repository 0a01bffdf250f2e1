import Foundation
import GeoTrackTesting
import Testing

/// A private tmux server running one command in a terminal of a given size, so tests can look at
/// the screen a person would see (capture-pane) and type at it (send-keys).
final class TmuxSession {
    let socket: String
    let width: Int
    let statusFile: String
    static let target = "geotrack-test"

    /// Starts `command` in a `width`×`height` terminal; the pane stays after the command exits so
    /// its last screen and exit status can be read. `afterwards`, a shell command, runs once it has
    /// exited, before ``exitStatus()`` has the status.
    init(width: Int, height: Int = 12, command: [String], environment: [String: String] = [:],
         afterwards: String? = nil) async throws {
        socket = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-\(UUID().uuidString.prefix(8))").path
        self.width = width
        var arguments = ["new-session", "-d", "-s", Self.target, "-x", "\(width)", "-y", "\(height)"]
        var env = environment
        env["NO_COLOR"] = env["NO_COLOR"] ?? ""
        for (key, value) in env.sorted(by: { $0.key < $1.key }) {
            arguments += ["-e", "\(key)=\(value)"]
        }
        // A small shell records the exit status in a file (tmux 3.3 does not always report a dead
        // pane's status), then keeps the pane and its last screen until the test ends. It ignores
        // Ctrl-C itself (a no-op trap, reset to the default in the child). `afterwards` runs
        // before the status is written, so that a test which waited for the exit finds its output
        // complete (a loaded machine once showed an stty file still empty).
        statusFile = socket + ".status"
        arguments.append("trap : INT TSTP; " + command.map(Self.quote).joined(separator: " ")
                         + "; status=$?" + (afterwards.map { "; " + $0 } ?? "") + "; echo $status > " + Self.quote(statusFile)
                         + "; exec sleep 600")
        arguments += [";", "set-option", "-w", "-t", Self.target, "remain-on-exit", "on"]
        let run = try await tmux(arguments)
        guard run.status == 0 else { throw TmuxError.failed("tmux new-session: \(run.stderr)") }
    }

    deinit {
        // A deinit cannot await: tmux's client asks its server to stop and exits at once, so
        // this blocks a thread for a moment only.
        if let stop = try? ChildProcess("/usr/bin/tmux", ["-S", socket, "kill-server"]) { stop.waitUntilExit() }
        try? FileManager.default.removeItem(atPath: socket)
        try? FileManager.default.removeItem(atPath: statusFile)
    }

    /// The visible screen, one string per row, trailing blanks removed.
    func screen() async throws -> [String] {
        let run = try await tmux(["capture-pane", "-p", "-t", Self.target])
        // Every row ends with a newline; the last one does not start another row.
        let text = run.stdout.hasSuffix("\n") ? String(run.stdout.dropLast()) : run.stdout
        return text.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0).replacingOccurrences(of: #"\s+$"#, with: "", options: .regularExpression)
        }
    }

    /// The non-empty rows.
    func lines() async throws -> [String] {
        try await screen().filter { !$0.isEmpty }
    }

    /// Polls the screen until `condition` holds, or fails after `timeout`; returns the last screen seen.
    @discardableResult
    func waitFor(_ what: String, timeout: Double = 15, sourceLocation: SourceLocation = #_sourceLocation,
                 _ condition: ([String]) async -> Bool) async throws -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        var last: [String] = []
        while Date() < deadline {
            last = try await lines()
            if await condition(last) { return last }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("timed out waiting for \(what); screen:\n\(last.joined(separator: "\n"))", sourceLocation: sourceLocation)
        throw TmuxError.timeout(what)
    }

    /// Types keys (tmux key names, such as "Enter" or "C-c").
    func send(_ keys: String...) async throws {
        _ = try await tmux(["send-keys", "-t", Self.target] + keys)
    }

    /// Resizes the terminal, as a person dragging the window would (the program gets SIGWINCH).
    func resize(width: Int, height: Int? = nil) async throws {
        _ = try await tmux(["resize-window", "-t", Self.target, "-x", "\(width)"] + (height.map { ["-y", "\($0)"] } ?? []))
    }

    /// The command's process (the child of the pane's shell), once it runs.
    func commandPID(timeout: Double = 10) async throws -> pid_t {
        let run = try await tmux(["display-message", "-p", "-t", Self.target, "#{pane_pid}"])
        let shell = run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let children = try await TestSupport.runAtOnce("/usr/bin/pgrep", ["-P", shell])
            if let pid = children.stdout.split(separator: "\n").first.flatMap({ pid_t($0) }) { return pid }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TmuxError.timeout("the command's process")
    }

    /// The command's exit status once it has ended, else nil.
    func exitStatus() throws -> Int32? {
        guard let text = try? String(contentsOfFile: statusFile, encoding: .utf8) else { return nil }
        return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Waits for the command to end and returns its exit status.
    func waitForExit(timeout: Double = 10, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let status = try exitStatus() { return status }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("the command did not exit within \(timeout) s", sourceLocation: sourceLocation)
        throw TmuxError.timeout("exit")
    }

    private func tmux(_ arguments: [String]) async throws -> TestSupport.Run {
        try await TestSupport.runAtOnce("/usr/bin/tmux", ["-S", socket] + arguments)
    }

    static func quote(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    enum TmuxError: Error {
        case failed(String)
        case timeout(String)
    }
}
